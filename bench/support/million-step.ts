// One step of the million-document benchmark in a process of its own, so its memory is its own.
// Prints one JSON line: {"ms", "heldMb", "rssMb", ...}; the sending step also prints "sent N" lines.
// Run with --expose-gc: the heap held is read after a collection, every second.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { EvidenceCore } from '../../main/core';
import { benchSecrets, coreOnSandbox, sendUntilEmpty } from './core';
import { BENCH_METADATA } from './files';
import type { SandboxInfo } from './sandbox';

const [step, dataDir, ...rest] = process.argv.slice(2) as [string, string, ...string[]];
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('Run with --expose-gc.');
let heldBytes = 0;
const sample = () => {
  collect();
  heldBytes = Math.max(heldBytes, process.memoryUsage().heapUsed);
};
const sampler = setInterval(sample, 1000);

const started = performance.now();
const processorBefore = process.cpuUsage();
const facts = await run();
const processor = process.cpuUsage(processorBefore);
sample();
clearInterval(sampler);
process.stdout.write(
  `${JSON.stringify({
    ms: performance.now() - started,
    heldMb: heldBytes / 2 ** 20,
    rssMb: process.resourceUsage().maxRSS / 1024,
    cpuMs: (processor.user + processor.system) / 1000,
    ...facts,
  })}\n`,
);
process.exit(0);

async function run(): Promise<Record<string, unknown>> {
  switch (step) {
    case 'intake': {
      const core = await coreOnSandbox(dataDir, JSON.parse(rest[1] as string) as SandboxInfo);
      try {
        const report = await core.certify([rest[0] as string], BENCH_METADATA);
        return { queued: report.queued.length, problems: report.problems.length };
      } finally {
        await core.close();
      }
    }
    case 'send': {
      const sandbox = JSON.parse(rest[0] as string) as SandboxInfo;
      const core = await coreOnSandbox(dataDir, sandbox, { concurrency: 8 });
      try {
        const every = setInterval(() => {
          const { counts } = core.status();
          const { user, system } = process.cpuUsage(processorBefore);
          // With the processor time so far: a step killed halfway still says what it spent.
          process.stdout.write(
            `sent ${counts.pending + counts.anchored + counts.failed} ${(user + system) / 1000}\n`,
          );
        }, 500);
        await sendUntilEmpty(core);
        clearInterval(every);
        // Every send starts with the row claimed ('submitting' in its timeline): beyond one per row, sent again.
        const db = new Database(join(dataDir, 'queue.sqlite'), { readonly: true });
        const sends = db
          .prepare("SELECT COUNT(*) FROM state_history WHERE state = 'submitting'")
          .pluck()
          .get();
        const rows = db.prepare('SELECT COUNT(*) FROM certifications').pluck().get();
        db.close();
        return { failed: core.status().counts.failed, resent: Number(sends) - Number(rows) };
      } finally {
        await core.close();
      }
    }
    case 'register':
      return withCore({ sync: false }, async (core) => {
        const result = await core.exports.exportRegister({}, rest[0] as string);
        return { certifications: result.certifications };
      });
    case 'kit':
      return withCore({ sync: false }, async (core) => {
        const result = await core.exports.exportEvidence({}, { dir: rest[0] as string, receiptsOnly: true });
        return { certifications: result.certifications };
      });
    case 'check':
      return withCore({ sync: false }, async (core) => {
        const report = await core.sets.verifySet([rest[0] as string], { path: rest[1] as string });
        return { passed: report.summary.passed, counts: report.summary.counts };
      });
    default:
      throw new Error(`Unknown step ${step}`);
  }
}

async function withCore<T>(options: { sync: boolean }, work: (core: EvidenceCore) => Promise<T>): Promise<T> {
  const core = await EvidenceCore.open({ dataDir, secrets: benchSecrets(), ...options });
  try {
    return await work(core);
  } finally {
    await core.close();
  }
}
