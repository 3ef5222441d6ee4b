import { LOCAL_STATES } from '../../protocol/states';
import type { StateCounts } from '../../protocol/states';
import type { CertificationRow } from '../../protocol/views';

/** Results go to stdout (JSON for machines), progress and problems to stderr. */
export const out = (text: string) => process.stdout.write(`${text}\n`);
export const err = (text: string) => process.stderr.write(`${text}\n`);
export const outJson = (value: unknown) => out(JSON.stringify(value, null, 2));

export function describeCounts(counts: StateCounts): string {
  return LOCAL_STATES.map((state) => `${state} ${counts[state]}`).join(', ');
}

/** A row as automation sees it: no internals, nothing secret (there is nothing secret in a row). */
export function publicRow(row: CertificationRow) {
  return {
    id: row.id,
    file: row.filePath,
    asset_hash: row.assetHash,
    event_type: row.eventType,
    state: row.state,
    request_id: row.requestId,
    service_id: row.serviceId,
    verification: row.verification,
    error: row.errorMessage,
  };
}
