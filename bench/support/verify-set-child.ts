// Verifies one set in its own process (started with --expose-gc), so the memory it takes is its
// own: prints {"ms", "passed", "peakHeapGrowthMb", "retainedMb"} against the heap before it began.
import { EvidenceCore } from '../../main/core';
import { benchSecrets } from './core';

const [dataDir, set, against] = process.argv.slice(2) as [string, string, string];
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('Start this with --expose-gc.');
const core = await EvidenceCore.open({ dataDir, secrets: benchSecrets(), sync: false });
try {
  collect();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampling = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const started = performance.now();
  const report = await core.verification.verifySet([set], { path: against });
  const ms = performance.now() - started;
  clearInterval(sampling);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  collect();
  const mb = (bytes: number) => bytes / (1 << 20);
  process.stdout.write(
    JSON.stringify({
      ms,
      passed: report.summary.passed,
      peakHeapGrowthMb: mb(peak - before),
      // What stays while the report is kept (the app keeps the last one, to save it from).
      retainedMb: mb(process.memoryUsage().heapUsed - before),
    }),
  );
  report.results.close();
} finally {
  await core.close();
}
