import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchFigure } from './figure';
import { anchoringSandbox, coreOnSandbox } from './support/core';
import { countingForwarder } from './support/counting-forwarder';
import { BENCH_METADATA, writeSmallFiles } from './support/files';
import { verifyReceiptsFigure } from './verify-receipts';
import { sized } from './size';
import { benchScript } from './support/bench-scripts';
import { DRAWERS_FROM } from '../main/evidence/pdf/certificate-drawers';
import { bestOfPairs, timeCommand } from './support/timing';

const execFileAsync = promisify(execFile);
const CERTIFICATIONS = Number(process.env.BENCH_EXPORT_COUNT ?? sized(10_000, 20));
const HEAP_MIB = 256;

/**
 * The whole kit for 10,000 anchored certifications (a receipt and a certificate each, the
 * register, verify.html, the zip, one seal over all of it) against writing only their receipts, each export in its own
 * process: how much longer the papers take, and whether memory stays flat (the kit streams one
 * certification at a time; holding them all would show here).
 */
/**
 * The production checked against its genuine kit, as the other side checks it (every receipt read
 * within the bounds of docs/security.md and verified, every document hashed), in a process of its
 * own, against sha256sum -c over the same files: what reading hostile input safely costs.
 */
async function productionAgainstKit(dataDir: string, docs: string, kit: string): Promise<BenchFigure> {
  const list = join(dataDir, '..', 'docs.sha256');
  await execFileAsync('bash', [
    '-c',
    `cd '${docs}' && find . -type f -print0 | xargs -0 sha256sum > '${list}'`,
  ]);
  const check = async () =>
    JSON.parse(
      (
        await execFileAsync(process.execPath, [benchScript('verify-set-child'), dataDir, docs, kit], {
          encoding: 'utf8',
          maxBuffer: 1 << 20,
        })
      ).stdout,
    ) as { ms: number; passed: boolean };
  let passed = true;
  const best = await bestOfPairs(
    sized(3),
    async () => {
      const run = await check();
      passed &&= run.passed;
      return run.ms;
    },
    () => timeCommand(`cd '${docs}' && sha256sum --quiet -c '${list}'`),
  );
  return {
    name: `verify the production of ${CERTIFICATIONS.toLocaleString('en')} against its kit (each receipt read within bounds and verified)`,
    value: best.measured,
    reference: best.reference,
    unit: 'ms',
    referenceName: 'sha256sum -c over the same files',
    failures: passed ? 0 : 1,
  };
}

export async function exportKit(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-export-'));
  const sandbox = await anchoringSandbox(dir);
  const dataDir = join(dir, 'data');
  try {
    const docs = join(dir, 'docs');
    writeSmallFiles(docs, CERTIFICATIONS);
    // The sandbox's DEMO authority, behind a forwarder that counts what it really receives.
    const tsa = await countingForwarder(sandbox.tsa.url);
    const core = await coreOnSandbox(
      dataDir,
      { baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl, client: sandbox.demoClient },
      { sync: true },
      { url: tsa.url, trustedCertificates: sandbox.tsa.rootPem },
    );
    let requestsForTheDrop = 0;
    try {
      process.stderr.write('export: certifying\n');
      const report = await core.certify([docs], BENCH_METADATA);
      process.stderr.write('export: queued, waiting for anchoring and the timestamp\n');
      const ids = report.queued;
      const rows = await core.sync.waitUntilSettled(ids);
      const anchored = rows.filter((row) => row.state === 'anchored').length;
      if (anchored !== CERTIFICATIONS) throw new Error(`anchored ${anchored} of ${CERTIFICATIONS}`);
      while (core.queue.rows(ids).some((row) => row.timestampState !== 'confirmed'))
        await new Promise((resolve) => setTimeout(resolve, 100));
      // And the token's validation data (an OCSP answer), before anything else asks for its own.
      const [first] = ids;
      while (first !== undefined && !core.exports.receipt(first).timestamp?.validation)
        await new Promise((resolve) => setTimeout(resolve, 100));
      requestsForTheDrop = tsa.requests();
    } finally {
      await core.close();
    }
    // Asynchronously: the sandbox (and its timestamping authority) answers from this process.
    const run = async (mode: 'kit' | 'unsealed-kit' | 'receipts', drawingThreads?: number) =>
      JSON.parse(
        (
          await execFileAsync(
            process.execPath,
            // A bounded heap: V8 otherwise grows lazily and peak RSS says more about its GC than about
            // us; an export that held every certification would run out of memory here.
            [
              `--max-old-space-size=${HEAP_MIB}`,
              benchScript('export-child'),
              dataDir,
              join(dir, `out-${mode}${drawingThreads ?? ''}`),
              mode,
              ...(drawingThreads ? [String(drawingThreads)] : []),
            ],
            { encoding: 'utf8', maxBuffer: 1 << 20 },
          )
        ).stdout,
      ) as { ms: number; certifications: number; maxRssMb: number };
    process.stderr.write(`export: ${CERTIFICATIONS} anchored; exporting receipts only, then the kit\n`);
    const receipts = await run('receipts');
    process.stderr.write(`export: receipts only took ${receipts.ms.toFixed(0)} ms\n`);
    const unsealed = await run('unsealed-kit');
    process.stderr.write(`export: the unsealed kit took ${unsealed.ms.toFixed(0)} ms\n`);
    // How drawing grows with the cores: the same kit with one thread drawing certificates, then two
    // (a kit too small to be drawn in threads, as the smoke run's, has nothing to say of it).
    const [oneThread, twoThreads] =
      CERTIFICATIONS >= DRAWERS_FROM ? [await run('unsealed-kit', 1), await run('unsealed-kit', 2)] : [];
    process.stderr.write('export: now sealed\n');
    const requestsBefore = tsa.requests();
    const kit = await run('kit');
    const requestsForTheKit = tsa.requests() - requestsBefore;
    await tsa.close();
    const statusRequests = sandbox.tsa.statusRequests();
    // A kit is sealed whole, by one token over its manifest, or not saved at all.
    const sealed = existsSync(join(dir, 'out-kit', 'META-INF', 'timestamp.tst'));
    const failures =
      [receipts, unsealed, kit].filter((r) => r.certifications !== CERTIFICATIONS).length + (sealed ? 0 : 1);
    process.stderr.write('export: verifying the receipts as v3, then as v1\n');
    const verifying = await verifyReceiptsFigure(join(dir, 'out-receipts', 'certifications'));
    process.stderr.write('export: verifying the production against its kit\n');
    const againstKit = await productionAgainstKit(dataDir, docs, join(dir, 'out-receipts'));
    return [
      {
        name: `RFC 3161 requests to timestamp a drop of ${CERTIFICATIONS.toLocaleString('en')} files`,
        value: requestsForTheDrop,
        reference: CERTIFICATIONS,
        unit: 'requests',
        referenceName: 'files in the drop (one request per batch is 1/files)',
        failures: requestsForTheDrop === 0 ? 1 : 0,
        target: { atMost: 1 / CERTIFICATIONS },
      },
      {
        name: `RFC 3161 requests to seal the kit of ${CERTIFICATIONS.toLocaleString('en')}`,
        value: requestsForTheKit,
        reference: CERTIFICATIONS + 1,
        unit: 'requests',
        referenceName: 'one per certificate and one for the register (a seal per PDF)',
        failures: requestsForTheKit === 1 ? 0 : 1,
        target: { atMost: 1 / (CERTIFICATIONS + 1) },
      },
      {
        name: 'OCSP requests for the validation data of those tokens (the drop’s and the kits’)',
        value: statusRequests,
        reference: requestsForTheDrop + requestsForTheKit,
        unit: 'requests',
        referenceName: 'tokens kept (one authority certificate: asked about once while its answer holds)',
        failures: statusRequests === 1 ? 0 : 1,
        target: { atMost: 1 / Math.max(1, requestsForTheDrop + requestsForTheKit) },
      },
      {
        name: `export the sealed kit of ${CERTIFICATIONS.toLocaleString('en')} (one timestamp for the whole kit)`,
        value: kit.ms,
        reference: unsealed.ms,
        unit: 'ms',
        referenceName: 'the same kit unsealed',
        failures,
      },
      ...(oneThread && twoThreads
        ? [
            {
              name: `export the unsealed kit of ${CERTIFICATIONS.toLocaleString('en')} with two threads drawing certificates`,
              value: twoThreads.ms,
              reference: oneThread.ms,
              unit: 'ms',
              referenceName: `the same with one (this machine has ${availableParallelism()} cores; the app uses one fewer)`,
              failures: [oneThread, twoThreads].filter((r) => r.certifications !== CERTIFICATIONS).length,
            },
          ]
        : []),
      verifying,
      againstKit,
      {
        name: `export the sealed kit of ${CERTIFICATIONS.toLocaleString('en')} (certificates, register, zip)`,
        value: kit.ms,
        reference: receipts.ms,
        unit: 'ms',
        referenceName: 'receipts only',
        failures,
        target: { atMost: 5 },
      },
      {
        name: `peak memory of that kit export`,
        value: kit.maxRssMb,
        reference: receipts.maxRssMb,
        unit: 'MiB',
        referenceName: `receipts only (both with a ${HEAP_MIB} MiB heap; flat memory is near 1)`,
        failures,
        target: { atMost: 1.5 },
      },
    ];
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
