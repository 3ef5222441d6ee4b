import { EMBEDDED_PROFILE_ID } from '../../protocol/profiles';
import type { ChangeFeed } from './change-feed';
import type { QueueDb } from './database';
import { statementCache } from './statements';

const ACTIVE_PROFILE = 'active_profile';

/** Small named values kept with the queue: saved profiles, the active one, pinned log keys. */
export class SettingsStore {
  private readonly sql;

  constructor(
    db: QueueDb,
    private readonly feed: ChangeFeed,
  ) {
    this.sql = statementCache(db);
  }

  get(key: string): string | undefined {
    return this.sql('SELECT value FROM settings WHERE key = ?').pluck().get(key) as string | undefined;
  }

  set(key: string, value: string): void {
    this.sql(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  /** The settings whose key starts with `prefix`, as [key, value] pairs. */
  withPrefix(prefix: string): [string, string][] {
    return (
      this.sql('SELECT key, value FROM settings WHERE substr(key, 1, ?) = ?').all(prefix.length, prefix) as {
        key: string;
        value: string;
      }[]
    ).map((row) => [row.key, row.value]);
  }

  delete(key: string): void {
    this.sql('DELETE FROM settings WHERE key = ?').run(key);
  }

  activeProfile(): string {
    return this.get(ACTIVE_PROFILE) ?? EMBEDDED_PROFILE_ID;
  }

  /** Switching is a write everyone showing the queue hears about: the list and counts change with it. */
  setActiveProfile(id: string): void {
    this.set(ACTIVE_PROFILE, id);
    this.feed.noteProfileSwitched();
  }
}
