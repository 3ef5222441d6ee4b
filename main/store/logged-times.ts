import { loggedTimes } from '../../verifier/sandbox-evidence';

/**
 * The times the log signed in a row's evidence (as the service sent it, JSON), kept beside it so
 * lookups read a small table instead of every evidence, as ISO 8601 to the millisecond. Evidence
 * that is not JSON has none.
 */
export function loggedColumns(evidence: string | null): {
  certifiedAt: string | null;
  treeHeadAt: string | null;
} {
  try {
    if (evidence !== null) {
      const { certifiedAt, treeHeadAt } = loggedTimes(JSON.parse(evidence));
      return { certifiedAt, treeHeadAt: treeHeadAt === null ? null : new Date(treeHeadAt).toISOString() };
    }
  } catch {
    // Not JSON: nothing to keep.
  }
  return { certifiedAt: null, treeHeadAt: null };
}
