import { timeOrderedUuid } from './keys';
import { isRemovable } from '../../protocol/states';
import type { CertificationRow, HistoryEntry, Verification } from '../../protocol/views';
import type { Said } from '../../protocol/said';
import { said, storedSaid } from '../../protocol/said';
import { DeskError } from '../errors';
import type { Actor, RowProblem } from './queue-transitions';
import { QueueIntake } from './queue-intake';
import { loggedTimesOf } from './logged-times';

export type { ListQuery } from './queue-reader';
export type { Actor, NewCertification, RowProblem } from './queue-transitions';
export { IllegalTransition } from './queue-transitions';

export type { CertificationRow, HistoryEntry, Verification };

/**
 * The queue, with intention-named operations. Every state change goes through `transition`
 * (one transaction: the row, its timeline, the state machine's check) and is announced on the
 * change feed, so the table is the whole truth after a crash and every listener hears each write.
 */
export class CertificationQueue extends QueueIntake {
  /** Takes up to `limit` due queued rows of a profile and marks them as being sent. */
  claimDue(profileId: string, now: number, limit: number): CertificationRow[] {
    return this.db
      .transaction(() => {
        const ids = this.sql(
          `SELECT id FROM certifications WHERE profile_id = ? AND state = 'queued' AND next_attempt_at <= ?
           ORDER BY next_attempt_at, id LIMIT ?`,
        )
          .pluck()
          .all(profileId, now, limit) as number[];
        for (const id of ids) this.transition(id, 'submitting', { now, note: null });
        return this.getMany(ids);
      })
      .immediate();
  }

  /** The service accepted it: remember its id and state, and when to look again. */
  markPending(
    id: number,
    accepted: { serviceId: string; serviceState: string | null; rawResponse: string; nextPollAt: number },
    now = Date.now(),
  ): void {
    this.transition(id, 'pending', {
      now,
      note: said('history.acceptedAs', { serviceId: accepted.serviceId }),
      set: {
        service_id: accepted.serviceId,
        service_state: accepted.serviceState,
        raw_response: accepted.rawResponse,
        next_attempt_at: accepted.nextPollAt,
        attempts: 0,
        error_code: null,
        error_message: null,
      },
    });
  }

  /**
   * Sending failed in a way worth retrying: back to the queue, same request id, later. A lost
   * connection rather than an answer from the service does not count towards giving up.
   */
  requeue(
    id: number,
    error: RowProblem,
    nextAttemptAt: number,
    now = Date.now(),
    countsAsAttempt = true,
  ): void {
    const attempts = (this.require(id).attempts ?? 0) + (countsAsAttempt ? 1 : 0);
    this.transition(id, 'queued', {
      now,
      note: error.said,
      set: {
        attempts,
        next_attempt_at: nextAttemptAt,
        error_code: error.code,
        error_message: storedSaid(error.said),
      },
    });
  }

  /** `serviceState`: the service's own word for the failure (REJECTED…), when it gave one. */
  markFailed(
    id: number,
    error: RowProblem,
    rawResponse: string | null,
    now = Date.now(),
    serviceState?: string | null,
  ): void {
    this.transition(id, 'failed', {
      now,
      note: error.said,
      set: {
        error_code: error.code,
        error_message: storedSaid(error.said),
        next_attempt_at: null,
        ...(rawResponse === null ? {} : { raw_response: rawResponse }),
        ...(serviceState ? { service_state: serviceState } : {}),
      },
    });
  }

  markAnchored(
    id: number,
    outcome: {
      serviceState: string;
      rawResponse: string;
      evidence: string | null;
      verification: Verification;
      verificationMessage: Said;
    },
    now = Date.now(),
  ): void {
    this.db
      .transaction(() => {
        this.transition(id, 'anchored', {
          now,
          note: outcome.verificationMessage,
          set: {
            service_state: outcome.serviceState,
            raw_response: outcome.rawResponse,
            evidence: outcome.evidence,
            verification: outcome.verification,
            verification_message: storedSaid(outcome.verificationMessage),
            anchored_at: now,
            next_attempt_at: null,
          },
        });
        const logged = loggedTimesOf(outcome.evidence);
        // Whether the evidence holds is the row's own verification, followed by a trigger (migration 11).
        this.sql(
          `INSERT OR REPLACE INTO logged_times (certification_id, verified, certified_at, tree_head_at)
           SELECT id, verification IS 'verified', ?, ? FROM certifications WHERE id = ?`,
        ).run(logged.certifiedAt, logged.treeHeadAt, id);
      })
      .immediate();
  }

  /**
   * Sends a failed certification again. If the service had accepted it, the retry is a new
   * certification there and gets a new X-Request-Id; otherwise the old one is kept.
   */
  retry(id: number, by: Actor, now = Date.now()): void {
    this.db
      .transaction(() => {
        const row = this.require(id);
        const accepted = row.serviceId !== null;
        this.transition(id, 'queued', {
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
        this.audit('retried', row, by, now);
      })
      .immediate();
  }

  /** After a crash, requests that were on the wire are sent again, with the same request id. */
  resumeInterrupted(now = Date.now()): number {
    return this.db.transaction(() => {
      const ids = this.sql(`SELECT id FROM certifications WHERE state = 'submitting'`)
        .pluck()
        .all() as number[];
      for (const id of ids)
        this.transition(id, 'queued', {
          now,
          note: said('history.resumed'),
          set: { next_attempt_at: now },
        });
      return ids.length;
    })();
  }

  /** A look at the service found it still on its way: note what was seen and when to look again. */
  recordPoll(
    id: number,
    seen: {
      serviceState: string | null;
      rawResponse: string | null;
      nextPollAt: number;
      /** Why this look told us nothing; null clears an earlier one; undefined leaves it. */
      problem?: RowProblem | null;
    },
    now = Date.now(),
  ): void {
    const before = this.require(id);
    const problem =
      seen.problem === undefined
        ? before
        : { errorCode: seen.problem?.code ?? null, errorMessage: seen.problem?.said ?? null };
    this.sql(
      `UPDATE certifications SET service_state = COALESCE(?, service_state), raw_response = COALESCE(?, raw_response),
       error_code = ?, error_message = ?, attempts = attempts + 1, next_attempt_at = ?, updated_at = ?
       WHERE id = ? AND state = 'pending'`,
    ).run(
      seen.serviceState,
      seen.rawResponse,
      problem.errorCode,
      storedSaid(problem.errorMessage),
      seen.nextPollAt,
      now,
      id,
    );
    const stateMoved = seen.serviceState !== null && seen.serviceState !== before.serviceState;
    if (stateMoved)
      this.appendHistory(
        id,
        'pending',
        now,
        said('history.serviceReports', { state: seen.serviceState ?? '' }),
      );
    if (stateMoved || storedSaid(problem.errorMessage) !== storedSaid(before.errorMessage))
      this.feed.noteChanged(id, 'pending');
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
    this.db
      .transaction(() => {
        const changed = this.sql(
          `UPDATE certifications SET verification = ?, verification_message = ?, updated_at = ? WHERE id = ? AND state = 'anchored'`,
        ).run(check.verification, storedSaid(check.verificationMessage), now, id).changes;
        if (changed)
          this.appendHistory(
            id,
            'anchored',
            now,
            said('history.checkedAgain', { result: check.verificationMessage }),
          );
      })
      .immediate();
    this.feed.noteChanged(id, 'anchored');
  }

  /** Removes a certification that was never sent, or that failed for good. */
  remove(id: number, by: Actor, now = Date.now()): void {
    this.db
      .transaction(() => {
        const row = this.require(id);
        if (!isRemovable(row)) {
          throw new DeskError('not_removable', said('queue.notRemovable', { name: row.fileName }));
        }
        this.audit('removed', row, by, now);
        this.sql('DELETE FROM certifications WHERE id = ?').run(id);
      })
      .immediate();
    this.feed.noteRemoved(id);
  }

  /** While the service is unreachable, nothing of a profile is due before the next probe. */
  deferDue(profileId: string, until: number): void {
    this.sql(
      `UPDATE certifications SET next_attempt_at = ? WHERE profile_id = ? AND state IN ('queued', 'pending') AND next_attempt_at < ?`,
    ).run(until, profileId, until);
  }

  /** Makes every waiting row of a profile due now ("try now"). */
  makeDueNow(profileId: string, now = Date.now()): void {
    this.sql(
      `UPDATE certifications SET next_attempt_at = ? WHERE profile_id = ? AND state IN ('queued', 'pending') AND next_attempt_at > ?`,
    ).run(now, profileId, now);
  }
}
