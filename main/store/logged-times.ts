import { loggedTimes } from '../../verifier/sandbox-evidence';

/**
 * The times the log signed in a row's evidence (as the service sent it, JSON), kept beside it so
 * lookups read a small table instead of every evidence. Evidence that is not JSON has none.
 */
export function loggedTimesOf(evidence: string | null): ReturnType<typeof loggedTimes> {
  try {
    if (evidence !== null) return loggedTimes(JSON.parse(evidence));
  } catch {
    // Not JSON: nothing to keep.
  }
  return { certifiedAt: null, treeHeadAt: null };
}
