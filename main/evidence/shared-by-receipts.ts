import type { SettingsStore } from '../store';
import { LogTrust } from './log-trust';
import type { ReceiptContext } from './receipt';

/** What the receipts of one export share: their environment and log key, by profile. */
export interface SharedByReceipts {
  environment(profileId: string): ReceiptContext['environment'];
  logKey(profileId: string, evidence: unknown): string | null;
}

/**
 * The environment and log key a receipt names, read from the settings once per profile and key
 * rather than once per receipt: a kit of 20,000 spent a tenth of its time reading them again.
 */
export function sharedByReceipts(
  environmentOf: (profileId: string) => ReceiptContext['environment'],
  settings: SettingsStore,
): SharedByReceipts {
  const environments = new Map<string, ReceiptContext['environment']>();
  const keys = new Map<string, string | null>();
  return {
    environment: (profileId) => {
      const known = environments.get(profileId) ?? environmentOf(profileId);
      environments.set(profileId, known);
      return known;
    },
    logKey: (profileId, evidence) => {
      const named = (evidence as { log_key_id?: unknown } | null)?.log_key_id;
      const which = JSON.stringify([profileId, typeof named === 'string' ? named : null]);
      const known = keys.has(which)
        ? (keys.get(which) ?? null)
        : LogTrust.keyForEvidence(settings, profileId, evidence);
      keys.set(which, known);
      return known;
    },
  };
}
