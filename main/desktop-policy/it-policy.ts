/**
 * What IT decides for every computer, set by policy in the same places as updates (an environment
 * variable, the Windows registry, a macOS managed preference):
 * - `LockLogKeys` (1): nobody at this computer trusts a new log key; IT decides;
 * - `TrustedLogKeys` (fingerprints, separated by commas or spaces): keys IT has checked, trusted as
 *   soon as the service presents them;
 * - `SourceSystem`: the name the service records as where certifications come from.
 */
import { TRUE_WORDS, readPolicyValue } from './policy-store';

export const LOCK_ENV = 'EVIDENCE_DESK_LOCK_LOG_KEYS';
export const TRUSTED_ENV = 'EVIDENCE_DESK_TRUSTED_LOG_KEYS';
export const SOURCE_SYSTEM_ENV = 'EVIDENCE_DESK_SOURCE_SYSTEM';
export const LOCK_VALUE = 'LockLogKeys';
export const TRUSTED_VALUE = 'TrustedLogKeys';
export const SOURCE_SYSTEM_VALUE = 'SourceSystem';

export interface ItPolicy {
  /** A new log key is trusted only by IT (TrustedLogKeys), never by a click at this computer. */
  locked: boolean;
  /** Fingerprints IT trusts, lower-case hex. */
  trusted: string[];
  /** The source system every certification names; null when IT leaves it to the person. */
  sourceSystem: string | null;
}

type StoreValues = { lock: string | null; trusted: string | null; sourceSystem: string | null };

/** The policy from what the environment and the OS's store say (the environment first). */
export function itPolicyOf(
  env: NodeJS.ProcessEnv,
  store: StoreValues = { lock: null, trusted: null, sourceSystem: null },
): ItPolicy {
  const lock = env[LOCK_ENV] ?? store.lock;
  const trusted = env[TRUSTED_ENV] ?? store.trusted ?? '';
  const sourceSystem = (env[SOURCE_SYSTEM_ENV] ?? store.sourceSystem ?? '').trim().slice(0, 128);
  return {
    locked: lock !== null && lock !== undefined && TRUE_WORDS.test(lock.trim()),
    sourceSystem: sourceSystem || null,
    trusted: trusted
      .split(/[\s,;]+/)
      .map((fingerprint) => fingerprint.toLowerCase())
      .filter((fingerprint) => /^[0-9a-f]{64}$/.test(fingerprint)),
  };
}

/** The policy as set on this computer. */
export async function readItPolicy(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Promise<ItPolicy> {
  const fromStore = (envName: string, value: string) =>
    env[envName] === undefined ? readPolicyValue(platform, value) : Promise.resolve(null);
  const [lock, trusted, sourceSystem] = await Promise.all([
    fromStore(LOCK_ENV, LOCK_VALUE),
    fromStore(TRUSTED_ENV, TRUSTED_VALUE),
    fromStore(SOURCE_SYSTEM_ENV, SOURCE_SYSTEM_VALUE),
  ]);
  return itPolicyOf(env, { lock, trusted, sourceSystem });
}
