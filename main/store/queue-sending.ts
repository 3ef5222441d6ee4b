import type { CertificationRow, Verification } from '../../protocol/views';
import type { Said } from '../../protocol/said';
import { said, storedSaid } from '../../protocol/said';
import type { QueueReads } from './queue-reads';
import type { RowProblem, RowTransitions } from './row-transitions';
import { loggedTimesOf } from './logged-times';

/**
 * The sync's view of the table: rows claimed for sending, what the service answered, when each is
 * due again. The sync engine and its row exchange hold this role and no other.
 */
export class QueueSending {
  constructor(
    private readonly rows: RowTransitions,
    private readonly reads: QueueReads,
  ) {}

  /** Pending rows of a profile whose next look at the service is due. */
  duePolls(profileId: string, now: number, limit: number): CertificationRow[] {
    return this.reads.duePolls(profileId, now, limit);
  }

  /** When the next row of a profile is due (to send or to look at), or null. */
  nextDueAt(profileId: string): number | null {
    return this.reads.nextDueAt(profileId);
  }

  get(id: number): CertificationRow | undefined {
    return this.reads.get(id);
  }

  /** Writes in one commit: an answer and the next row claimed (a commit writes a dozen pages of the log). */
  inOneCommit<T>(work: () => T): T {
    return this.rows.db.transaction(work).immediate();
  }

  /** Takes up to `limit` due queued rows of a profile and marks them as being sent. */
  claimDue(profileId: string, now: number, limit: number): CertificationRow[] {
    return this.rows.db
      .transaction(() => {
        const ids = this.rows
          .sql(
            `SELECT id FROM certifications WHERE profile_id = ? AND state = 'queued' AND next_attempt_at <= ?
           ORDER BY next_attempt_at, id LIMIT ?`,
          )
          .pluck()
          .all(profileId, now, limit) as number[];
        for (const id of ids) this.rows.transition(id, 'submitting', { now, note: null });
        return this.reads.getMany(ids);
      })
      .immediate();
  }

  /** The service accepted it: remember its id and state, and when to look again. */
  markPending(
    id: number,
    accepted: { serviceId: string; serviceState: string | null; rawResponse: string; nextPollAt: number },
    now = Date.now(),
  ): void {
    this.rows.transition(id, 'pending', {
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
    const attempts = (this.reads.require(id).attempts ?? 0) + (countsAsAttempt ? 1 : 0);
    this.rows.transition(id, 'queued', {
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
    this.rows.transition(id, 'failed', {
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
    this.rows.db
      .transaction(() => {
        this.rows.transition(id, 'anchored', {
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
        this.rows
          .sql(
            `INSERT OR REPLACE INTO logged_times (certification_id, verified, certified_at, tree_head_at)
           SELECT id, verification IS 'verified', ?, ? FROM certifications WHERE id = ?`,
          )
          .run(logged.certifiedAt, logged.treeHeadAt, id);
      })
      .immediate();
  }

  /** After a crash, requests that were on the wire are sent again, with the same request id. */
  resumeInterrupted(now = Date.now()): number {
    return this.rows.db.transaction(() => {
      const ids = this.rows
        .sql(`SELECT id FROM certifications WHERE state = 'submitting'`)
        .pluck()
        .all() as number[];
      for (const id of ids)
        this.rows.transition(id, 'queued', {
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
    const before = this.reads.require(id);
    const problem =
      seen.problem === undefined
        ? before
        : { errorCode: seen.problem?.code ?? null, errorMessage: seen.problem?.said ?? null };
    this.rows
      .sql(
        `UPDATE certifications SET service_state = COALESCE(?, service_state), raw_response = COALESCE(?, raw_response),
       error_code = ?, error_message = ?, attempts = attempts + 1, next_attempt_at = ?, updated_at = ?
       WHERE id = ? AND state = 'pending'`,
      )
      .run(
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
      this.rows.appendHistory(
        id,
        'pending',
        now,
        said('history.serviceReports', { state: seen.serviceState ?? '' }),
      );
    if (stateMoved || storedSaid(problem.errorMessage) !== storedSaid(before.errorMessage))
      this.rows.feed.noteChanged(id, 'pending');
  }

  /** While the service is unreachable, nothing of a profile is due before the next probe. */
  deferDue(profileId: string, until: number): void {
    this.rows
      .sql(
        `UPDATE certifications SET next_attempt_at = ? WHERE profile_id = ? AND state IN ('queued', 'pending') AND next_attempt_at < ?`,
      )
      .run(until, profileId, until);
  }

  /** Makes every waiting row of a profile due now ("try now"). */
  makeDueNow(profileId: string, now = Date.now()): void {
    this.rows
      .sql(
        `UPDATE certifications SET next_attempt_at = ? WHERE profile_id = ? AND state IN ('queued', 'pending') AND next_attempt_at > ?`,
      )
      .run(now, profileId, now);
  }
}
