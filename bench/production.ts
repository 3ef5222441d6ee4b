import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { EvidenceCore } from '../main/core';
import { writeCustodyRegister } from '../main/evidence/custody-register';
import type { BenchFigure } from './figure';
import { benchSecrets } from './support/core';
import { BENCH_METADATA } from './support/files';
import { anchoredEntry, holdAnchored } from './support/anchored';
import { bestOfPairs, timeCommand, timeIt } from './support/timing';
import { sized } from './size';

const FILES = sized(2000, 10);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);

/**
 * A realistic production: 2,000 files from 4 KiB to 20 MiB, most of them small (about 750 MiB in
 * all), the same sizes every run (a fixed seed). Hashing and queueing it, and checking it against
 * its register, each against `openssl dgst -sha256` over the same files in as many processes as
 * the machine has cores: what the machine can hash. Targets: 1.2× and 1.3×.
 */
export async function realisticProduction(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-production-'));
  const docs = join(dir, 'docs');
  const cores = availableParallelism();
  try {
    const files = writeProduction(docs);
    const openssl = () =>
      timeCommand(
        `cd '${docs}' && find . -type f -print0 | xargs -0 -P ${cores} -n ${Math.ceil(files.length / cores)} openssl dgst -sha256 > /dev/null`,
      );
    await timeCommand(`cat $(find '${docs}' -type f) > /dev/null`);
    const certified = (core: EvidenceCore) =>
      timeIt(async () => {
        const report = await core.certify([docs], BENCH_METADATA, { again: true });
        if (report.queued.length !== files.length) throw new Error(`queued ${report.queued.length}`);
      });
    const intake = await withCore(join(dir, 'intake'), (core) =>
      bestOfPairs(3, () => certified(core), openssl),
    );
    // How the hashing pool grows with the cores: the same intake with one worker, then two (best of 3).
    const withWorkers = (hashWorkers: number) =>
      withCore(
        join(dir, `workers-${hashWorkers}`),
        async (core) => Math.min(await certified(core), await certified(core), await certified(core)),
        { hashWorkers },
      );
    const oneWorker = await withWorkers(1);
    const twoWorkers = await withWorkers(2);
    // As on the computer that certified them: the register's certifications anchored in the queue.
    const digests = files.map((path) => ({
      name: relative(docs, path),
      sha256: createHash('sha256').update(readFileSync(path)).digest('hex'),
    }));
    const register = join(dir, 'register.csv');
    await writeCustodyRegister(
      { entries: () => digests.map((d, i) => anchoredEntry(join(docs, d.name), d.sha256, i)), removals: [] },
      register,
    );
    const check = await withCore(join(dir, 'check'), (core) => {
      holdAnchored(join(dir, 'check', 'queue.sqlite'), core.activeProfileId, digests, docs);
      return bestOfPairs(
        3,
        () =>
          timeIt(async () => {
            const report = await core.sets.verifySet([docs], { path: register });
            if (!report.summary.passed) throw new Error('the production did not pass against its register');
          }),
        openssl,
      );
    });
    const figure = (name: string, best: typeof intake, atMost: number): BenchFigure => ({
      name,
      value: best.measured,
      reference: best.reference,
      unit: 'ms',
      referenceName: `openssl dgst -sha256 in ${cores} processes`,
      failures: 0,
      target: { atMost },
    });
    const what = `a production of ${files.length.toLocaleString('en')} files (${megabytes(files)} MiB)`;
    return [
      figure(`hash and queue ${what}`, intake, 1.2),
      figure(`check ${what} against its register`, check, 1.3),
      {
        name: `hash and queue ${what} with two hashing workers`,
        value: twoWorkers,
        reference: oneWorker,
        unit: 'ms',
        referenceName: 'the same with one (0.5 would be perfect scaling)',
        failures: 0,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function withCore<T>(
  dataDir: string,
  work: (core: EvidenceCore) => Promise<T>,
  options: { hashWorkers?: number } = {},
): Promise<T> {
  const core = await EvidenceCore.open({ dataDir, secrets: benchSecrets(), sync: false, ...options });
  try {
    return await work(core);
  } finally {
    await core.close();
  }
}

/** The production's files, sizes drawn from a fixed seed, in folders of 100. */
function writeProduction(root: string): string[] {
  const next = seeded(36);
  const paths: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const folder = join(root, `custodian-${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    // 4 KiB × 5120^(u^6.5): mostly letters and e-mails, some scans of several megabytes.
    const size = Math.max(256, Math.round(4096 * 5120 ** (next() ** 6.5) * SCALE));
    const path = join(folder, `DOC-${String(i).padStart(6, '0')}.pdf`);
    // The content does not change how fast it hashes: random, so none of it compresses or repeats.
    writeFileSync(path, randomBytes(size));
    paths.push(path);
  }
  return paths;
}

const megabytes = (paths: string[]) =>
  Math.round(paths.reduce((sum, path) => sum + statSync(path).size, 0) / 2 ** 20).toLocaleString('en');

/** mulberry32: the same numbers for the same seed, on every machine. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
