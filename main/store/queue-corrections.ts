import { timeOrderedUuid } from './keys';
import { isRemovable } from '../../protocol/states';
import type { Verification } from '../../protocol/views';
import type { Said } from '../../protocol/said';
import { said, storedSaid } from '../../protocol/said';
import { DeskError } from '../errors';
import type { QueueReads } from './queue-reads';
import type { Actor, RowTransitions } from './row-transitions';

/**
 * What changes a row after the fact: a person's retry or removal (each kept in the audit trail),
 * and a fresh check of an anchored row's evidence.
 */
export class QueueCorrections {
  constructor(
    private readonly rows: RowTransitions,
    private readonly reads: QueueReads,
  ) {}

  /**
   * Sends a failed certification again. If the service had accepted it, the retry is a new
   * certification there and gets a new X-Request-Id; otherwise the old one is kept.
   */
  retry(id: number, by: Actor, now = Date.now()): void {
    this.rows.db
      .transaction(() => {
        const row = this.reads.require(id);
        const accepted = row.serviceId !== null;
        this.rows.transition(id, 'queued', {
          now,
          note: by.user ? said('history.sentAgainBy', { user: by.user }) : said('history.sentAgain'),
          set: {
            next_attempt_at: now,
            attempts: 0,
            error_code: null,
            error_message: null,
            ...(accepted ? { request_id: timeOrderedUuid(), service_id: null, service_state: null } : {}),
          },
        });
        this.rows.audit('retried', row, by, now);
      })
      .immediate();
  }

  /** Removes a certification that was never sent, or that failed for good. */
  remove(id: number, by: Actor, now = Date.now()): void {
    this.rows.db
      .transaction(() => {
        const row = this.reads.require(id);
        if (!isRemovable(row)) {
          throw new DeskError('not_removable', said('queue.notRemovable', { name: row.fileName }));
        }
        this.rows.audit('removed', row, by, now);
        this.rows.sql('DELETE FROM certifications WHERE id = ?').run(id);
        this.rows.counts.add(row.profileId, row.matter, row.state, -1);
      })
      .immediate();
    this.rows.feed.noteRemoved(id);
  }

  /**
   * Records a fresh check of an anchored row's evidence (after the user accepted a new log key):
   * no state change, but a timeline entry saying what the check found.
   */
  recordVerification(
    id: number,
    check: { verification: Verification; verificationMessage: Said },
    now = Date.now(),
  ): void {
    this.rows.db
      .transaction(() => {
        const changed = this.rows
          .sql(
            `UPDATE certifications SET verification = ?, verification_message = ?, updated_at = ? WHERE id = ? AND state = 'anchored'`,
          )
          .run(check.verification, storedSaid(check.verificationMessage), now, id).changes;
        if (changed)
          this.rows.appendHistory(
            id,
            'anchored',
            now,
            said('history.checkedAgain', { result: check.verificationMessage }),
          );
      })
      .immediate();
    this.rows.feed.noteChanged(id, 'anchored');
  }
}
