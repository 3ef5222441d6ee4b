/**
 * What IT decides for every computer, set by policy in the same places as updates (an environment
 * variable, the Windows registry, a macOS managed preference):
 * - `LockLogKeys` (1): nobody at this computer trusts a new log key; IT decides;
 * - `TrustedLogKeys` (fingerprints, separated by commas or spaces): keys IT has checked, trusted as
 *   soon as the service presents them;
 * - `SourceSystem`: the name the service records as where certifications come from;
 * - `RetiredAlgorithms` (e.g. "sha1, rsa<3072, ec<384"): what a timestamp may no longer rest on: an
 *   evidence record whose newest timestamp was signed so is renewed at once;
 * - `RenewalMarginDays`: how many days before a timestamp's certificates end its records are renewed.
 */
import { TRUE_WORDS, readPolicyValue } from './policy-store';

export const LOCK_ENV = 'EVIDENCE_DESK_LOCK_LOG_KEYS';
export const TRUSTED_ENV = 'EVIDENCE_DESK_TRUSTED_LOG_KEYS';
export const SOURCE_SYSTEM_ENV = 'EVIDENCE_DESK_SOURCE_SYSTEM';
export const LOCK_VALUE = 'LockLogKeys';
export const TRUSTED_VALUE = 'TrustedLogKeys';
export const SOURCE_SYSTEM_VALUE = 'SourceSystem';
export const RETIRED_ENV = 'EVIDENCE_DESK_RETIRED_ALGORITHMS';
export const RETIRED_VALUE = 'RetiredAlgorithms';
export const MARGIN_ENV = 'EVIDENCE_DESK_RENEWAL_MARGIN_DAYS';
export const MARGIN_VALUE = 'RenewalMarginDays';

export interface ItPolicy {
  /** A new log key is trusted only by IT (TrustedLogKeys), never by a click at this computer. */
  locked: boolean;
  /** Fingerprints IT trusts, lower-case hex. */
  trusted: string[];
  /** The source system every certification names; null when IT leaves it to the person. */
  sourceSystem: string | null;
  /** What timestamps may no longer rest on ("sha1", "rsa<3072"…); null: Evidence Desk's own list. */
  retiredAlgorithms: string[] | null;
  /** Days before a timestamp's certificates end that its records are renewed; null: the setting's. */
  renewalMarginDays: number | null;
}

type StoreValues = {
  lock: string | null;
  trusted: string | null;
  sourceSystem: string | null;
  retired?: string | null;
  margin?: string | null;
};

/** The policy from what the environment and the OS's store say (the environment first). */
export function itPolicyOf(
  env: NodeJS.ProcessEnv,
  store: StoreValues = { lock: null, trusted: null, sourceSystem: null },
): ItPolicy {
  const lock = env[LOCK_ENV] ?? store.lock;
  const trusted = env[TRUSTED_ENV] ?? store.trusted ?? '';
  const sourceSystem = (env[SOURCE_SYSTEM_ENV] ?? store.sourceSystem ?? '').trim().slice(0, 128);
  const retired = env[RETIRED_ENV] ?? store.retired ?? null;
  const margin = Number(env[MARGIN_ENV] ?? store.margin ?? NaN);
  return {
    retiredAlgorithms:
      retired === null
        ? null
        : retired
            .split(/[\s,;]+/)
            .map((entry) => entry.toLowerCase())
            .filter((entry) => /^(md5|sha1|sha224|sha256|sha384|sha512|(rsa|ec)<\d{3,5})$/.test(entry)),
    renewalMarginDays: Number.isFinite(margin) && margin > 0 ? margin : null,
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
  const [lock, trusted, sourceSystem, retired, margin] = await Promise.all([
    fromStore(LOCK_ENV, LOCK_VALUE),
    fromStore(TRUSTED_ENV, TRUSTED_VALUE),
    fromStore(SOURCE_SYSTEM_ENV, SOURCE_SYSTEM_VALUE),
    fromStore(RETIRED_ENV, RETIRED_VALUE),
    fromStore(MARGIN_ENV, MARGIN_VALUE),
  ]);
  return itPolicyOf(env, { lock, trusted, sourceSystem, retired, margin });
}
