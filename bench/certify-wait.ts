import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchFigure } from './figure';
import { anchoringSandbox, coreOnSandbox } from './support/core';
import { BENCH_METADATA, writeSmallFiles } from './support/files';
import { timeIt } from './support/timing';
import { sized } from './size';

const SMALL = sized(500, 10);
const LARGE = sized(2_000, 40);

/**
 * `certify --wait` (certify, then wait on the change stream until every row settles) for 2,000
 * files against 500 in the same run: linear work makes the ratio 4; waiting that re-reads every
 * awaited row on every change grows with the square (the first version took 8 s and 100 s).
 */
export async function certifyWaitScaling(): Promise<BenchFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-wait-'));
  const sandbox = await anchoringSandbox(dir);
  const info = { baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl, client: sandbox.demoClient };
  const run = async (files: number) => {
    const docs = join(dir, `docs-${files}`);
    writeSmallFiles(docs, files);
    const core = await coreOnSandbox(join(dir, `data-${files}`), info, { sync: true });
    try {
      return await timeIt(async () => {
        const report = await core.certify([docs], BENCH_METADATA);
        const rows = await core.sync.waitUntilSettled(report.queued);
        const anchored = rows.filter((row) => row.state === 'anchored').length;
        if (anchored !== files) throw new Error(`anchored ${anchored} of ${files}`);
      });
    } finally {
      await core.close();
    }
  };
  try {
    const small = await run(SMALL);
    const large = await run(LARGE);
    return {
      name: `certify --wait ${LARGE.toLocaleString('en')} files`,
      value: large,
      reference: small,
      unit: 'ms',
      referenceName: `certify --wait ${SMALL} files (linear is 4)`,
      failures: 0,
      target: { atMost: 5 },
    };
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
