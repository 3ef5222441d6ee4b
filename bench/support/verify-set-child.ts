// Verifies one set in its own process (started with --expose-gc), so the memory it takes is its
// own: prints {"ms", "passed", "livePeakMb", "inUsePeakMb", "retainedMb"} against the heap before
// it began.
import { EvidenceCore } from '../../main/core';
import { benchSecrets } from './core';

const [dataDir, set, against] = process.argv.slice(2) as [string, string, string];
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('Start this with --expose-gc.');
// What the check holds is sampled after a full collection: the heap in use between collections
// also counts garbage the collector has not yet needed to free, which grows with how long a check
// runs, not with what it keeps.
const LIVE_EVERY_MS = 25;
const core = await EvidenceCore.open({ dataDir, secrets: benchSecrets(), sync: false });
try {
  collect();
  const before = process.memoryUsage().heapUsed;
  let inUse = before;
  let live = before;
  const sampling = setInterval(() => (inUse = Math.max(inUse, process.memoryUsage().heapUsed)), 5);
  const collecting = setInterval(() => {
    collect();
    live = Math.max(live, process.memoryUsage().heapUsed);
  }, LIVE_EVERY_MS);
  const started = performance.now();
  const report = await core.sets.verifySet([set], { path: against });
  const ms = performance.now() - started;
  clearInterval(sampling);
  clearInterval(collecting);
  inUse = Math.max(inUse, process.memoryUsage().heapUsed);
  collect();
  const mb = (bytes: number) => bytes / (1 << 20);
  process.stdout.write(
    JSON.stringify({
      ms,
      passed: report.summary.passed,
      livePeakMb: mb(live - before),
      inUsePeakMb: mb(inUse - before),
      // What stays while the report is kept (the app keeps the last one, to save it from).
      retainedMb: mb(process.memoryUsage().heapUsed - before),
    }),
  );
  report.results.close();
} finally {
  await core.close();
}
