/**
 * The service's own state words (the spec shows only `anchored`). Read once here: the client's
 * response reader decides progress from them, and every shell labels them the same way.
 */
export const ANCHORED_SERVICE_STATE = 'anchored';
export const FAILED_SERVICE_STATES: ReadonlySet<string> = new Set([
  'failed',
  'failure',
  'rejected',
  'error',
  'cancelled',
  'canceled',
  'revoked',
]);
const IN_PROGRESS_SERVICE_STATES: ReadonlySet<string> = new Set(['pending', 'processing', 'queued']);

/** Whether the service's word is one of the states we know (in any case). */
export function isKnownServiceState(word: string): boolean {
  const normal = word.toLowerCase();
  return (
    normal === ANCHORED_SERVICE_STATE ||
    FAILED_SERVICE_STATES.has(normal) ||
    IN_PROGRESS_SERVICE_STATES.has(normal)
  );
}

/** The service's own word for a state we do not know, as it wrote it; null for one we know (or none). */
export function unknownServiceWord(word: string | null): string | null {
  return word === null || isKnownServiceState(word) ? null : word;
}

/** The service's state as people see it: a word we know, or "unknown (<word>)" as the service wrote it. */
export function serviceStateLabel(word: string | null): string | null {
  if (word === null) return null;
  return isKnownServiceState(word) ? word.toLowerCase() : `unknown (${word})`;
}
