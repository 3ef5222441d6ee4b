import type { SettingsStore } from '../store';
import type { LogKeySource } from './evidence-checker';

const logKeyKey = (profileId: string) => `log_key:${profileId}`;

/** The log key pinned for a profile (base64 SPKI DER), if one has been. */
export function storedLogKey(settings: SettingsStore, profileId: string): string | null {
  return settings.get(logKeyKey(profileId)) ?? null;
}

/**
 * The log key is pinned per environment on first use: a later key change is not silently
 * trusted. `fetchKey` asks the service for it when nothing is pinned yet.
 */
export function pinnedLogKeys(
  settings: SettingsStore,
  profileId: () => string,
  fetchKey: () => Promise<{ ok: true; value: string } | { ok: false } | undefined>,
): LogKeySource {
  return {
    async pinnedLogKey() {
      const id = profileId();
      const pinned = storedLogKey(settings, id);
      if (pinned) return pinned;
      const fetched = await fetchKey();
      if (!fetched?.ok) return undefined;
      settings.set(logKeyKey(id), fetched.value);
      return fetched.value;
    },
  };
}
