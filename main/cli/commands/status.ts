import { localWithZone, utcIso } from '../../../protocol/time-format';
import type { ConnectivityStatus } from '../../../protocol/views';
import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT, UsageError, statesOf } from '../arguments';
import {
  describeCounts,
  describeRow,
  environmentOf,
  environmentWords,
  out,
  outJson,
  printable,
  publicRow,
} from '../output';
import { peopleLocale, say, words } from '../language';

export function status(core: EvidenceCore, values: Values): number {
  const current = core.status();
  const states = statesOf(values);
  const limit = values.limit ? Number(values.limit) : 50;
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(words('usageErrors.limit'));
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
  out(words('status.profile', { id: current.profile.id, ...environmentWords(core) }));
  out(describeCounts(current.counts));
  for (const { matter, counts } of matters.filter((entry) => entry.matter !== null).slice(0, 20))
    out(
      words('status.matter', {
        matter: printable(matter ?? ''),
        counts: describeCounts(counts, { skipZero: true }),
      }),
    );
  out(words('status.connection', { words: connectionWords(current.connectivity) }));
  const [newest] = core.queue.list({ limit: 1 });
  const [anchored] = core.queue.list({ states: ['anchored'], limit: 1 });
  if (newest)
    out(
      words('status.lastCertified', { when: localWithZone(newest.createdAt, { locale: peopleLocale }) }) +
        (anchored?.anchoredAt
          ? words('status.lastAnchored', {
              when: localWithZone(anchored.anchoredAt, { locale: peopleLocale }),
            })
          : ''),
    );
  if (current.logKeyChange)
    out(words('status.keyChanged', { fingerprint: current.logKeyChange.fingerprint }));
  const sealsWaiting = core.exports.sealsWaiting();
  if (sealsWaiting) out(say(sealsWaiting));
  for (const row of rows)
    out(
      `${String(row.id).padStart(6)}  ${utcIso(row.createdAt)}  ${row.assetHash.slice(0, 12)}  ${printable(row.fileName)}${row.matter ? `  [${printable(row.matter)}]` : ''}  ${describeRow(row)}`,
    );
  return EXIT.ok;
}

/** The connection as this command knows it: status does not contact the service itself. */
function connectionWords(connectivity: ConnectivityStatus): string {
  const retry = connectivity.nextProbeAt
    ? words('status.nextTry', { when: localWithZone(connectivity.nextProbeAt, { locale: peopleLocale }) })
    : '';
  if (connectivity.state === 'unknown') return words('status.notChecked');
  const state = words(`status.connectivity.${connectivity.state}`);
  return `${state}${connectivity.message ? `: ${say(connectivity.message)}` : ''}${retry}`;
}
