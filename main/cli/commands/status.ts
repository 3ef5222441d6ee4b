import { localWithZone, utcIso } from '../../../protocol/time-format';
import type { ConnectivityStatus } from '../../../protocol/views';
import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT, UsageError, statesOf } from '../arguments';
import { describeCounts, describeRow, environmentOf, out, outJson, printable, publicRow } from '../output';
import { say } from '../language';

export function status(core: EvidenceCore, values: Values): number {
  const current = core.status();
  const states = statesOf(values);
  const limit = values.limit ? Number(values.limit) : 50;
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit takes a whole number above 0.');
  const rows =
    values.list || states.length || values.search || values.matter
      ? core.queue.list({ states, search: values.search, matter: values.matter, limit })
      : [];
  const matters = core.queue.matterCounts();
  if (values.json) {
    outJson({
      ...current,
      environment: environmentOf(core),
      matters,
      certifications: rows.map(publicRow),
    });
    return EXIT.ok;
  }
  const environment = environmentOf(core);
  out(
    `profile: ${current.profile.id} — ${environment.label}${environment.demo ? ' (DEMO — no legal weight)' : ''}`,
  );
  out(describeCounts(current.counts));
  for (const { matter, counts } of matters.filter((entry) => entry.matter !== null).slice(0, 20))
    out(`  matter ${printable(matter ?? '')}: ${describeCounts(counts, { skipZero: true })}`);
  out(`connection: ${connectionWords(current.connectivity)}`);
  const [newest] = core.queue.list({ limit: 1 });
  const [anchored] = core.queue.list({ states: ['anchored'], limit: 1 });
  if (newest)
    out(
      `last certified: ${localWithZone(newest.createdAt)}${anchored?.anchoredAt ? `; last anchored: ${localWithZone(anchored.anchoredAt)}` : ''}`,
    );
  if (current.logKeyChange)
    out(
      `WARNING: the service's log key changed (now ${current.logKeyChange.fingerprint}); evidence is not checked until you accept it: evidence-desk profile trust-key FINGERPRINT`,
    );
  for (const row of rows)
    out(
      `${String(row.id).padStart(6)}  ${utcIso(row.createdAt)}  ${row.assetHash.slice(0, 12)}  ${printable(row.fileName)}${row.matter ? `  [${printable(row.matter)}]` : ''}  ${describeRow(row)}`,
    );
  return EXIT.ok;
}

/** The connection as this command knows it: status does not contact the service itself. */
function connectionWords(connectivity: ConnectivityStatus): string {
  const retry = connectivity.nextProbeAt ? `; next try at ${localWithZone(connectivity.nextProbeAt)}` : '';
  if (connectivity.state === 'unknown')
    return 'not checked (status does not contact the service; evidence-desk profile test does)';
  return `${connectivity.state}${connectivity.message ? `: ${say(connectivity.message)}` : ''}${retry}`;
}
