import { stateSaid } from '../../protocol/states';
import { canTransition } from '../../protocol/states';
import type { LocalState } from '../../protocol/states';
import type { ErrorCode } from '../../protocol/errors';
import type { Said } from '../../protocol/said';
import { said, storedSaid } from '../../protocol/said';
import type { CertificationRow, Verification } from '../../protocol/views';
import { DeskError } from '../errors';
import type { ChangeFeed } from './change-feed';
import type { QueueDb } from './database';
import { notFound } from './queue-reads';
import { statementCache } from './statements';
import { StateCounts } from './state-counts';

/** Who did something to a row, for the audit trail. */
export interface Actor {
  user: string | null;
  computer: string | null;
}

/** The columns a state change may set besides the state itself. */
export interface TransitionColumns {
  request_id: string;
  attempts: number;
  next_attempt_at: number | null;
  service_id: string | null;
  service_state: string | null;
  error_code: ErrorCode | null;
  error_message: string | null;
  raw_response: string | null;
  evidence: string | null;
  verification: Verification | null;
  verification_message: string | null;
  anchored_at: number | null;
}

/** Why a row failed or waits: a code for programs, and what to tell people. */
export interface RowProblem {
  code: ErrorCode;
  said: Said;
}

/** A change the state machine forbids: a desk error, so the shells say it in words, not as an internal error. */
export class IllegalTransition extends DeskError {
  constructor(
    readonly from: LocalState,
    readonly to: LocalState,
  ) {
    super(
      'illegal_transition',
      said('queue.illegalTransition', { from: stateSaid(from), to: stateSaid(to) }),
      {
        from,
        to,
      },
    );
  }
}

/** What intake knows of a file when its hash is ready: a row is this plus what the queue adds. */
export type NewCertification = Pick<
  CertificationRow,
  | 'profileId'
  | 'filePath'
  | 'fileName'
  | 'fileSize'
  | 'assetHash'
  | 'assetType'
  | 'sourceSystem'
  | 'eventType'
> &
  Partial<
    Pick<
      CertificationRow,
      | 'certifiedBy'
      | 'certifiedOn'
      | 'certifierName'
      | 'certifierFirm'
      | 'matter'
      | 'batchId'
      | 'watchedFolderId'
      | 'followsId'
    >
  >;

/** A row as it is written: every column of a new row is known, so it is never read back. */
export function freshRow(
  item: NewCertification,
  id: number,
  requestId: string,
  now: number,
): CertificationRow {
  return {
    ...item,
    certifiedBy: item.certifiedBy ?? null,
    certifiedOn: item.certifiedOn ?? null,
    certifierName: item.certifierName ?? null,
    certifierFirm: item.certifierFirm ?? null,
    matter: item.matter ?? null,
    batchId: item.batchId ?? now,
    watchedFolderId: item.watchedFolderId ?? null,
    followsId: item.followsId ?? null,
    id,
    requestId,
    state: 'queued',
    attempts: 0,
    nextAttemptAt: now,
    serviceId: null,
    serviceState: null,
    errorCode: null,
    errorMessage: null,
    rawResponse: null,
    evidence: null,
    verification: null,
    verificationMessage: null,
    createdAt: now,
    updatedAt: now,
    anchoredAt: null,
    timestampState: null,
    timeConfirmedBy: null,
    timeConfirmedAt: null,
    timestampProblem: null,
    timestampPath: null,
  };
}

/**
 * The table's writes that every role shares: each state change goes through `transition` (one
 * transaction: the row, its timeline, the machine's check) and is announced on the change feed;
 * removals and retries leave an entry in the audit trail. The roles (intake, sending,
 * corrections) each hold this, not one another.
 */
export class RowTransitions {
  readonly sql;
  /** Counts by profile, matter and state, kept with every write that changes them. */
  readonly counts: StateCounts;

  constructor(
    readonly db: QueueDb,
    readonly feed: ChangeFeed,
  ) {
    this.sql = statementCache(db);
    this.counts = new StateCounts(db);
  }

  /** An entry in the audit trail, keeping what the row was (a removed row's timeline goes with it). */
  audit(action: 'removed' | 'retried', row: CertificationRow, by: Actor, now: number): void {
    this.sql(
      `INSERT INTO audit_trail (at, action, profile_id, certification_id, matter, file_name, file_path, file_size,
       asset_hash, event_type, state_before, by_user, on_computer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      now,
      action,
      row.profileId,
      row.id,
      row.matter,
      row.fileName,
      row.filePath,
      row.fileSize,
      row.assetHash,
      row.eventType,
      row.state,
      by.user,
      by.computer,
    );
  }

  /**
   * The one way a row's state changes: checked against the state machine, written with its
   * timeline entry in one transaction, and announced on the change feed.
   */
  transition(
    id: number,
    to: LocalState,
    change: { now: number; note: Said | null; set?: Partial<TransitionColumns> },
  ): void {
    const set = change.set ?? {};
    const names = Object.keys(set) as (keyof TransitionColumns)[];
    this.db
      .transaction(() => {
        const row = this.sql(
          'SELECT state, profile_id AS profileId, matter FROM certifications WHERE id = ?',
        ).get(id) as { state: LocalState; profileId: string; matter: string | null } | undefined;
        if (row === undefined) throw notFound(id);
        const from = row.state;
        if (!canTransition(from, to)) throw new IllegalTransition(from, to);
        this.sql(
          `UPDATE certifications SET state = ?, updated_at = ?${names.map((n) => `, ${n} = ?`).join('')} WHERE id = ?`,
        ).run(to, change.now, ...names.map((n) => set[n]), id);
        if (from !== to) {
          this.counts.add(row.profileId, row.matter, from, -1);
          this.counts.add(row.profileId, row.matter, to, 1);
        }
        this.appendHistory(id, to, change.now, change.note);
      })
      .immediate();
    this.feed.noteChanged(id, to);
  }

  appendHistory(id: number, state: LocalState, at: number, note: Said | null): void {
    this.sql('INSERT INTO state_history (certification_id, state, at, note) VALUES (?, ?, ?, ?)').run(
      id,
      state,
      at,
      storedSaid(note),
    );
  }
}
