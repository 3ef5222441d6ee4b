import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../main/store';
import { coreOnSandbox, sendUntilEmpty } from './support/core';
import type { BenchFigure } from './figure';
import { drive } from './support/load';
import { accessToken, freshCreation, serveSandbox, sha256 } from './support/sandbox';
import { sized } from './size';

const COUNT = sized(10_000, 50);
const CONCURRENCY = 8;

/**
 * Draining 10,000 queued certifications into the sandbox (in its own process), as a share of
 * the creation rate a plain HTTP load generator reaches on the same endpoint with as many connections.
 */
export async function queueDrain(): Promise<BenchFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-drain-'));
  const sandbox = await serveSandbox();
  const core = await coreOnSandbox(dir, sandbox.info, { concurrency: CONCURRENCY });
  try {
    // Queued through a second connection to the same file, as the CLI would while the app runs.
    const seed = openStore(join(dir, 'queue.sqlite'));
    seed.certifications.intake.enqueue(
      Array.from({ length: COUNT }, (_, i) => ({
        profileId: 'bench',
        filePath: `/bench/document-${i}.pdf`,
        fileName: `document-${i}.pdf`,
        fileSize: 1,
        assetHash: sha256(`document ${i}`),
        assetType: 'document',
        sourceSystem: 'bench',
        eventType: 'DOCUMENT_FILED',
      })),
    );
    seed.close();

    const started = performance.now();
    await sendUntilEmpty(core);
    const drainRate = COUNT / ((performance.now() - started) / 1000);
    const failed = core.status().counts.failed;

    const token = await accessToken(sandbox.info);
    const reference = await drive(
      {
        url: `${sandbox.info.baseUrl}/v1/certifications`,
        method: 'POST',
        seconds: Math.max(3, Math.ceil(COUNT / drainRate)),
        connections: CONCURRENCY,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        vary: freshCreation,
      },
      201,
    );
    return {
      name: `drain ${COUNT.toLocaleString('en')} queued certifications`,
      value: drainRate,
      reference: reference.requestsPerSecond,
      unit: 'certifications/s',
      referenceName: 'autocannon on the same endpoint',
      failures: failed + reference.unexpected,
      target: { atLeast: 0.5 },
    };
  } finally {
    await core.close();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
