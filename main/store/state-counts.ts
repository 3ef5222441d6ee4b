import type { QueueDb } from './database';
import type { LocalState } from '../../protocol/states';
import { statementCache } from './statements';

/**
 * The counts of certifications by profile, matter and state (migration 20), kept by the three
 * writes that change them: a row queued, a row's state changed, a row removed. Each runs inside
 * the write's own transaction, so a count never disagrees with the rows.
 */
export class StateCounts {
  private readonly sql;

  constructor(db: QueueDb) {
    this.sql = statementCache(db);
  }

  add(profileId: string, matter: string | null, state: LocalState, n: number): void {
    const { changes } = this.sql(
      'UPDATE state_counts SET n = n + ? WHERE profile_id = ? AND matter IS ? AND state = ?',
    ).run(n, profileId, matter, state);
    if (changes === 0)
      this.sql('INSERT INTO state_counts (profile_id, matter, state, n) VALUES (?, ?, ?, ?)').run(
        profileId,
        matter,
        state,
        n,
      );
  }

  /** Rows just queued, counted once per profile and matter. */
  addQueued(rows: readonly { profileId: string; matter?: string | null }[]): void {
    const byGroup = new Map<string, { profileId: string; matter: string | null; n: number }>();
    for (const { profileId, matter = null } of rows) {
      const key = JSON.stringify([profileId, matter]);
      const group = byGroup.get(key) ?? { profileId, matter, n: 0 };
      group.n++;
      byGroup.set(key, group);
    }
    for (const { profileId, matter, n } of byGroup.values()) this.add(profileId, matter, 'queued', n);
  }
}
