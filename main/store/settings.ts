import { EMBEDDED_PROFILE_ID } from '../../protocol/profiles';
import type { ChangeFeed } from './change-feed';
import type { QueueDb } from './database';
import { statementCache } from './statements';
import type { SettingKey, SettingPrefix } from './setting-keys';
import { SETTING } from './setting-keys';

/** Small named values kept with the queue: saved profiles, the active one, pinned log keys. */
export class SettingsStore {
  private readonly sql;

  constructor(
    db: QueueDb,
    private readonly feed: ChangeFeed,
  ) {
    this.sql = statementCache(db);
  }

  get(key: SettingKey): string | undefined {
    return this.sql('SELECT value FROM settings WHERE key = ?').pluck().get(key) as string | undefined;
  }

  set(key: SettingKey, value: string): void {
    this.sql(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  /** The settings whose key starts with `prefix`, as [key, value] pairs. */
  withPrefix(prefix: SettingPrefix): [string, string][] {
    return (
      this.sql('SELECT key, value FROM settings WHERE substr(key, 1, ?) = ?').all(prefix.length, prefix) as {
        key: string;
        value: string;
      }[]
    ).map((row) => [row.key, row.value]);
  }

  delete(key: SettingKey): void {
    this.sql('DELETE FROM settings WHERE key = ?').run(key);
  }

  activeProfile(): string {
    return this.get(SETTING.activeProfile) ?? EMBEDDED_PROFILE_ID;
  }

  /** Switching is a write everyone showing the queue hears about: the list and counts change with it. */
  setActiveProfile(id: string): void {
    this.set(SETTING.activeProfile, id);
    this.feed.noteProfileSwitched();
  }
}
