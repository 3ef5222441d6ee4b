import type { CertificationRow, HistoryEntry, Verification } from '../../protocol/views';
import type { ChangeFeed } from './change-feed';
import type { QueueDb } from './database';
import { ContentReads } from './content-reads';
import { QueueCorrections } from './queue-corrections';
import { QueueIntake } from './queue-intake';
import { QueueReads } from './queue-reads';
import { QueueSending } from './queue-sending';
import { RowTransitions } from './row-transitions';

export type { ListQuery } from './queue-reads';
export type { Actor, NewCertification, RowProblem } from './row-transitions';
export { IllegalTransition } from './row-transitions';
export type { CertificationRow, HistoryEntry, Verification };
export type { ContentReads, QueueCorrections, QueueIntake, QueueReads, QueueSending };

/** What a watched folder needs of the table: its arrivals written, each content once. */
export type QueueArrivals = Pick<QueueIntake, 'enqueueUncertified'>;

/**
 * The certifications table, by role: each consumer is handed the one it needs. Every state change
 * of every role goes through one `RowTransitions` (the row, its timeline and the state machine's
 * check in one transaction, announced on the change feed), so the table is the whole truth after
 * a crash and every listener hears each write.
 */
export class CertificationTable {
  /** What the screens, the CLI, exports and verification read. */
  readonly reads: QueueReads;
  /** The same, by content: already certified here, a file's verification, a set check. */
  readonly byContent: ContentReads;
  /** New certifications coming in. */
  readonly intake: QueueIntake;
  /** The sync engine's view: claiming, answers, when each row is due. */
  readonly sending: QueueSending;
  /** Retries, removals, and fresh checks of evidence. */
  readonly corrections: QueueCorrections;

  constructor(db: QueueDb, feed: ChangeFeed) {
    const rows = new RowTransitions(db, feed);
    this.reads = new QueueReads(db);
    this.byContent = new ContentReads(db);
    this.intake = new QueueIntake(rows, this.reads, this.byContent);
    this.sending = new QueueSending(rows, this.reads);
    this.corrections = new QueueCorrections(rows, this.reads);
  }
}
