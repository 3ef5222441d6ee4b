import { WAITING_STATES } from '../../../protocol/states';
import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT } from '../arguments';
import { waitWithProgress } from '../progress';
import { describeCounts, out, outJson, reportBlocked, sendingState } from '../output';

/** Sends what is queued; with --wait, until every certification waiting now has settled, whoever sends it. */
export async function sync(core: EvidenceCore, values: Values): Promise<number> {
  const waiting = core.queue.list({ states: WAITING_STATES, limit: 1_000_000 }).map((row) => row.id);
  const rows = values.wait
    ? await waitWithProgress(core, waiting, values)
    : await core.sync.waitUntilSent(waiting);
  const counts = core.status().counts;
  if (values.json) outJson({ counts, settled: rows.length, sending: sendingState(core) });
  else out(describeCounts(counts));
  if (reportBlocked(core, values)) return EXIT.environment;
  return rows.some((row) => row.state === 'failed') ? EXIT.failed : EXIT.ok;
}
