import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT, UsageError, statesOf } from '../arguments';
import { describeCounts, describeRow, environmentOf, out, outJson, printable, publicRow } from '../output';

export function status(core: EvidenceCore, values: Values): number {
  const current = core.status();
  const states = statesOf(values);
  const limit = values.limit ? Number(values.limit) : 50;
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit takes a whole number above 0.');
  const rows =
    values.list || states.length || values.search ? core.list({ states, search: values.search, limit }) : [];
  if (values.json) {
    outJson({ ...current, environment: environmentOf(core), certifications: rows.map(publicRow) });
    return EXIT.ok;
  }
  const environment = environmentOf(core);
  out(
    `profile: ${current.profile.id} — ${environment.label}${environment.demo ? ' (DEMO — no legal weight)' : ''}`,
  );
  out(describeCounts(current.counts));
  if (current.connectivity.message) out(`connection: ${current.connectivity.message}`);
  if (current.logKeyChange)
    out(
      `WARNING: the service's log key changed (now ${current.logKeyChange.fingerprint}); evidence is not checked until you accept it: evidence-desk profile trust-key FINGERPRINT`,
    );
  for (const row of rows)
    out(
      `${String(row.id).padStart(6)}  ${row.assetHash.slice(0, 12)}  ${printable(row.fileName)}  ${describeRow(row)}`,
    );
  return EXIT.ok;
}
