import type { CertificationDetails, CertificationRow, MatterCount } from '../../protocol/views';
import { logPosition } from '../../verifier/sandbox-evidence';
import { currentIdentity } from '../config/identity';
import { DeskError } from '../errors';
import type { ReceiptContext } from '../evidence/receipt';
import type { ListQuery, QueueCorrections, QueueReads } from '../store';
import { said } from '../../protocol/said';
import { isRemovable } from '../../protocol/states';

export interface QueueViewDeps {
  reads: QueueReads;
  corrections: Pick<QueueCorrections, 'retry' | 'remove'>;
  activeProfileId(): string;
  environmentOf(profileId: string): ReceiptContext['environment'];
  /** Something was sent again: the engine looks at the queue now. */
  wake(): void;
}

/**
 * The active profile's certifications as the screens and the CLI see them: the list and its
 * counts, one certification's details, the matters, and what a person may do to a row (send a
 * failed one again, remove one never anchored), each recorded in the audit trail.
 */
export class QueueView {
  constructor(private readonly deps: QueueViewDeps) {}

  list(query: Omit<ListQuery, 'profileId'>): CertificationRow[] {
    return this.deps.reads.list({ ...query, profileId: this.deps.activeProfileId() });
  }

  count(query: Omit<ListQuery, 'profileId' | 'limit' | 'offset'>): number {
    return this.deps.reads.count({ ...query, profileId: this.deps.activeProfileId() });
  }

  details(id: number): CertificationDetails {
    const row = this.deps.reads.get(id);
    if (!row) throw new DeskError('not_found', said('queue.noCertification', { id }));
    const position = row.evidence === null ? null : logPosition(row.evidence);
    return {
      row,
      history: this.deps.reads.history(id),
      environment: this.deps.environmentOf(row.profileId),
      logPosition: position && { entry: position.leafIndex + 1, of: position.treeSize },
    };
  }

  /** The rows with these ids, in that order (those removed meanwhile are left out). */
  rows(ids: readonly number[]): CertificationRow[] {
    return this.deps.reads.getMany(ids);
  }

  /** Sends a failed certification again; the audit trail says who asked. */
  retry(id: number): void {
    this.deps.corrections.retry(id, currentIdentity());
    this.deps.wake();
  }

  /** Removes a certification never sent (or failed for good); the audit trail keeps what it was. */
  remove(id: number): void {
    this.deps.corrections.remove(id, currentIdentity());
  }

  /**
   * Of these certifications, removes those never anchored (never sent, or failed for good), each
   * recorded in the audit trail; the others stay, counted.
   */
  removeNeverAnchored(ids: readonly number[]): { removed: number; kept: number } {
    const by = currentIdentity();
    const outcome = { removed: 0, kept: 0 };
    for (let i = 0; i < ids.length; i += 500)
      for (const row of this.deps.reads.getMany(ids.slice(i, i + 500))) {
        if (isRemovable(row)) this.deps.corrections.remove(row.id, by);
        outcome[isRemovable(row) ? 'removed' : 'kept']++;
      }
    return outcome;
  }

  /** The matters used most recently in this profile, for the batch form. */
  recentMatters(): string[] {
    return this.deps.reads.recentMatters(this.deps.activeProfileId());
  }

  matterCounts(): MatterCount[] {
    return this.deps.reads.matterCounts(this.deps.activeProfileId());
  }
}
