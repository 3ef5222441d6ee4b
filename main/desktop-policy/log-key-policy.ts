/**
 * Who decides which log keys this computer trusts, as IT sets it by policy (the same places as
 * updates: an environment variable, the Windows registry, a macOS managed preference):
 * - `LockLogKeys` (1): nobody at this computer trusts a new log key; IT decides;
 * - `TrustedLogKeys` (fingerprints, separated by commas or spaces): keys IT has checked, trusted as
 *   soon as the service presents them.
 */
import { TRUE_WORDS, readPolicyValue } from './policy-store';

export const LOCK_ENV = 'EVIDENCE_DESK_LOCK_LOG_KEYS';
export const TRUSTED_ENV = 'EVIDENCE_DESK_TRUSTED_LOG_KEYS';
export const LOCK_VALUE = 'LockLogKeys';
export const TRUSTED_VALUE = 'TrustedLogKeys';

export interface LogKeyPolicy {
  /** A new log key is trusted only by IT (TrustedLogKeys), never by a click at this computer. */
  locked: boolean;
  /** Fingerprints IT trusts, lower-case hex. */
  trusted: string[];
}

/** The policy from what the environment and the OS's store say (the environment first). */
export function logKeyPolicyOf(
  env: NodeJS.ProcessEnv,
  store: { lock: string | null; trusted: string | null } = { lock: null, trusted: null },
): LogKeyPolicy {
  const lock = env[LOCK_ENV] ?? store.lock;
  const trusted = env[TRUSTED_ENV] ?? store.trusted ?? '';
  return {
    locked: lock !== null && lock !== undefined && TRUE_WORDS.test(lock.trim()),
    trusted: trusted
      .split(/[\s,;]+/)
      .map((fingerprint) => fingerprint.toLowerCase())
      .filter((fingerprint) => /^[0-9a-f]{64}$/.test(fingerprint)),
  };
}

/** The policy as set on this computer. */
export async function readLogKeyPolicy(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): Promise<LogKeyPolicy> {
  const [lock, trusted] = await Promise.all([
    env[LOCK_ENV] === undefined ? readPolicyValue(platform, LOCK_VALUE) : null,
    env[TRUSTED_ENV] === undefined ? readPolicyValue(platform, TRUSTED_VALUE) : null,
  ]);
  return logKeyPolicyOf(env, { lock, trusted });
}
