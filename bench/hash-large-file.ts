import { randomFillSync } from 'node:crypto';
import { mkdtempSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashPool } from '../main/hashing/hash-pool';
import type { BenchFigure } from './figure';
import { bestOfPairs, timeCommand, timeIt } from './support/timing';
import { inEnglish } from '../protocol/locales';
import { sized } from './size';

const GIB = sized(1024 ** 3, 1024 ** 2);

/** Hashing one 1 GiB file in the worker pool, as a share of `openssl dgst -sha256`'s speed on it. */
export async function largeFileHashing(): Promise<BenchFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-hash-'));
  const file = join(dir, 'one-gib.bin');
  const pool = new HashPool(1);
  try {
    writeRandomFile(file, GIB);
    await timeCommand(`cat '${file}' > /dev/null`); // both read from the page cache
    const best = await bestOfPairs(
      3,
      () =>
        timeIt(async () => {
          const outcome = await pool.hash(file);
          if (!outcome.ok) throw new Error(inEnglish(outcome.said));
        }),
      () => timeCommand(`openssl dgst -sha256 '${file}'`),
    );
    const mibPerSecond = (ms: number) => GIB / (1024 * 1024) / (ms / 1000);
    return {
      name: 'hash one 1 GiB file',
      value: mibPerSecond(best.measured),
      reference: mibPerSecond(best.reference),
      unit: 'MiB/s',
      referenceName: 'openssl dgst -sha256',
      failures: 0,
      target: { atLeast: 0.9 },
    };
  } finally {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function writeRandomFile(path: string, size: number): void {
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  const fd = openSync(path, 'w');
  try {
    for (let written = 0; written < size; written += chunk.length) writeSync(fd, randomFillSync(chunk));
  } finally {
    closeSync(fd);
  }
}
