// Verifies one set in its own process, so the time and memory it takes are its own. Prints {"ms",
// "passed"}; with `memory` as a fourth argument (started with --expose-gc) also {"livePeakMb",
// "inUsePeakMb", "retainedMb"} against the heap before it began. Only then does it collect
// garbage while it checks: a full collection every 25 ms is time the check does not otherwise
// spend (under a loaded machine's smoke run, it turned a check of 20 files into 80 s).
import { EvidenceCore } from '../../main/core';
import { benchSecrets } from './core';

const [dataDir, set, against, measure] = process.argv.slice(2) as [string, string, string, string?];
const core = await EvidenceCore.open({ dataDir, secrets: benchSecrets(), sync: false });
try {
  const check = () => core.sets.verifySet([set], { path: against });
  if (measure === 'memory') {
    process.stdout.write(JSON.stringify(await withMemory(check)));
  } else {
    const started = performance.now();
    const report = await check();
    process.stdout.write(JSON.stringify({ ms: performance.now() - started, passed: report.summary.passed }));
    report.results.close();
  }
} finally {
  await core.close();
}

async function withMemory(check: () => ReturnType<EvidenceCore['sets']['verifySet']>) {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('Start this with --expose-gc to measure memory.');
  // What the check holds is sampled after a full collection: the heap in use between collections
  // also counts garbage the collector has not yet needed to free, which grows with how long a check
  // runs, not with what it keeps.
  const LIVE_EVERY_MS = 25;
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
  const report = await check();
  const ms = performance.now() - started;
  clearInterval(sampling);
  clearInterval(collecting);
  inUse = Math.max(inUse, process.memoryUsage().heapUsed);
  collect();
  const mb = (bytes: number) => bytes / (1 << 20);
  const measured = {
    ms,
    passed: report.summary.passed,
    livePeakMb: mb(live - before),
    inUsePeakMb: mb(inUse - before),
    // What stays while the report is kept (the app keeps the last one, to save it from).
    retainedMb: mb(process.memoryUsage().heapUsed - before),
  };
  report.results.close();
  return measured;
}
