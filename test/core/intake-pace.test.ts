import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IntakeProgress } from '../../main/intake/certify-paths';
import { certifyPaths } from '../../main/intake/certify-paths';
import { HashPool } from '../../main/hashing/hash-pool';
import type { Store } from '../../main/store';
import { openStore } from '../../main/store';
import { METADATA, workspace } from '../support/core';
import type { TestWorkspace } from '../support/core';

const FILES = 8_000;

/**
 * The real pool, counting the files handed to it and not hashed yet, and hashing none until
 * `release()`: what the intake holds when the listing outruns the hashing is then plain to see.
 */
class GatedPool extends HashPool {
  unhashed = 0;
  private released!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.released = resolve));
  override async hash(...args: Parameters<HashPool['hash']>): ReturnType<HashPool['hash']> {
    this.unhashed++;
    await this.gate;
    return super.hash(...args).finally(() => this.unhashed--);
  }
  release(): void {
    this.released();
  }
}

let ws: TestWorkspace;
let store: Store;
let pool: GatedPool;
beforeEach(() => {
  ws = workspace('evidence-intake-pace-');
  mkdirSync(ws.dataDir, { recursive: true });
  store = openStore(join(ws.dataDir, 'queue.sqlite'));
  pool = new GatedPool(2);
});
afterEach(async () => {
  await pool.close();
  store.close();
  ws.cleanup();
});

// A production of a million documents must not be held in memory whole while it is hashed: the
// folder is listed as fast as it is hashed. And the progress shown says the whole from the start.
describe('certifying a large folder', () => {
  it('holds a few thousand files at a time, not the folder, says the whole count at once, and queues every file in order', async () => {
    const folder = join(ws.dir, 'production');
    for (let part = 0; part < FILES / 1000; part++) {
      mkdirSync(join(folder, `part-${String(part).padStart(2, '0')}`), { recursive: true });
      for (let i = 0; i < 1000; i++)
        writeFileSync(
          join(folder, `part-${String(part).padStart(2, '0')}`, `doc-${String(i).padStart(4, '0')}.txt`),
          `document ${part} ${i}`,
        );
    }
    const batches: Extract<IntakeProgress, { kind: 'batch' }>[] = [];
    const certifying = certifyPaths([folder], METADATA, {
      queue: store.certifications.intake,
      pool,
      profileId: 'embedded',
      identity: { user: 'jdoe', computer: 'desk-7' },
      onQueued: () => undefined,
      onProgress: (progress) => progress.kind === 'batch' && batches.push(progress),
    });
    // Nothing is hashed yet: the listing stops a few thousand files ahead (the old one handed over all 8,000).
    // On a loaded machine, counting the folder first can take longer than one look below.
    await expect.poll(() => pool.unhashed, { timeout: 20_000 }).toBeGreaterThan(0);
    let held = -1;
    while (held !== pool.unhashed) {
      held = pool.unhashed;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(held).toBeLessThanOrEqual(4096 + 1024);
    pool.release();
    const report = await certifying;

    expect(report.problems).toEqual([]);
    expect(report.queued).toHaveLength(FILES);
    // In the order given (a folder in name order), whatever order they were hashed in.
    const names = store.certifications.reads
      .getMany(report.queued)
      .map((row) => row.filePath.slice(folder.length));
    expect(names.slice(0, 2)).toEqual(['/part-00/doc-0000.txt', '/part-00/doc-0001.txt']);
    expect(names.at(-1)).toBe('/part-07/doc-0999.txt');
    // The total is the whole folder from the first figure shown.
    expect(batches.filter((progress) => progress.filesTotal > 0)[0]?.filesTotal).toBe(FILES);
    expect(batches.at(-1)).toMatchObject({ filesDone: FILES, filesTotal: FILES });
  }, 60_000);
});
