import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchFigure } from './figure';
import { anchoringSandbox, coreOnSandbox } from './support/core';
import { BENCH_METADATA, writeSmallFiles } from './support/files';

const CERTIFICATIONS = Number(process.env.BENCH_EXPORT_COUNT ?? 10_000);
const HEAP_MIB = 256;

/**
 * The whole kit for 10,000 anchored certifications (a receipt and a certificate each, the
 * register, verify.html, the zip) against writing only their receipts, each export in its own
 * process: how much longer the papers take, and whether memory stays flat (the kit streams one
 * certification at a time; holding them all would show here).
 */
export async function exportKit(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-export-'));
  const sandbox = await anchoringSandbox(dir);
  const dataDir = join(dir, 'data');
  try {
    const docs = join(dir, 'docs');
    writeSmallFiles(docs, CERTIFICATIONS);
    const core = await coreOnSandbox(
      dataDir,
      { baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl, client: sandbox.demoClient },
      { sync: true },
    );
    try {
      process.stderr.write('export: certifying\n');
      const report = await core.certify([docs], BENCH_METADATA);
      process.stderr.write('export: queued, waiting for anchoring\n');
      const rows = await core.waitUntilSettled(report.queued.map((row) => row.id));
      const anchored = rows.filter((row) => row.state === 'anchored').length;
      if (anchored !== CERTIFICATIONS) throw new Error(`anchored ${anchored} of ${CERTIFICATIONS}`);
    } finally {
      await core.close();
    }
    const run = (mode: 'kit' | 'receipts') =>
      JSON.parse(
        execFileSync(
          process.execPath,
          // A bounded heap: V8 otherwise grows lazily and peak RSS says more about its GC than about
          // us; an export that held every certification would run out of memory here.
          [
            `--max-old-space-size=${HEAP_MIB}`,
            '--import',
            'tsx',
            'bench/support/export-child.ts',
            dataDir,
            join(dir, `out-${mode}`),
            mode,
          ],
          { encoding: 'utf8', maxBuffer: 1 << 20 },
        ),
      ) as { ms: number; certifications: number; maxRssMb: number };
    process.stderr.write(`export: ${CERTIFICATIONS} anchored; exporting receipts only, then the kit\n`);
    const receipts = run('receipts');
    process.stderr.write(`export: receipts only took ${receipts.ms.toFixed(0)} ms\n`);
    const kit = run('kit');
    const failures = [receipts, kit].filter((r) => r.certifications !== CERTIFICATIONS).length;
    return [
      {
        name: `export the kit of ${CERTIFICATIONS.toLocaleString('en')} (certificates, register, zip)`,
        value: kit.ms,
        reference: receipts.ms,
        unit: 'ms',
        referenceName: 'receipts only',
        failures,
      },
      {
        name: `peak memory of that kit export`,
        value: kit.maxRssMb,
        reference: receipts.maxRssMb,
        unit: 'MiB',
        referenceName: `receipts only (both with a ${HEAP_MIB} MiB heap; flat memory is near 1)`,
        failures,
        target: { atMost: 2 },
      },
    ];
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
