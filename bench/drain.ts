import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvidenceCore } from '../main/core';
import { KeychainSecretStore } from '../main/secrets/secret-store';
import type { BenchFigure } from './figure';
import { drive } from './support/load';
import { serve } from './support/processes';

const COUNT = 10_000;
const CONCURRENCY = 8;

interface SandboxInfo {
  baseUrl: string;
  tokenUrl: string;
  client: { clientId: string; clientSecret: string };
}

/**
 * Draining 10,000 queued certifications into the sandbox (in its own process), as a share of
 * the creation rate a plain HTTP load generator reaches on the same endpoint with as many connections.
 */
export async function queueDrain(): Promise<BenchFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-drain-'));
  const sandbox = await serve<SandboxInfo>('bench/support/serve-sandbox.ts');
  const core = await EvidenceCore.open({
    dataDir: dir,
    secrets: new KeychainSecretStore('Evidence Desk bench'),
    sync: false,
    concurrency: CONCURRENCY,
  });
  try {
    await core.saveProfile(
      {
        id: 'bench',
        kind: 'custom',
        baseUrl: sandbox.info.baseUrl,
        tokenUrl: sandbox.info.tokenUrl,
        clientId: sandbox.info.client.clientId,
        signRequests: false,
      },
      { client_secret: sandbox.info.client.clientSecret },
    );
    await core.useProfile('bench');
    core.store.enqueue(
      Array.from({ length: COUNT }, (_, i) => ({
        profileId: 'bench',
        filePath: `/bench/document-${i}.pdf`,
        fileName: `document-${i}.pdf`,
        fileSize: 1,
        assetHash: hashOf(`document ${i}`),
        assetType: 'document',
        sourceSystem: 'bench',
        eventType: 'DOCUMENT_FILED',
      })),
    );

    const started = performance.now();
    core.startSync();
    await new Promise<void>((resolve) => {
      const check = () => {
        const counts = core.status().counts;
        if (counts.queued + counts.submitting === 0) resolve();
        else setTimeout(check, 20);
      };
      check();
    });
    const drainRate = COUNT / ((performance.now() - started) / 1000);
    const failed = core.status().counts.failed;

    const token = await core.testConnection();
    if (!token.ok) throw new Error(token.message);
    const { access_token: accessToken } = (await (
      await fetch(sandbox.info.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: sandbox.info.client.clientId,
          client_secret: sandbox.info.client.clientSecret,
        }),
      })
    ).json()) as { access_token: string };
    const reference = await drive(
      {
        url: `${sandbox.info.baseUrl}/v1/certifications`,
        method: 'POST',
        seconds: Math.max(3, Math.ceil(COUNT / drainRate)),
        connections: CONCURRENCY,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
        vary: () => ({
          headers: { 'x-request-id': randomUUID() },
          body: JSON.stringify({
            asset_hash: hashOf(randomUUID()),
            asset_type: 'document',
            source_system: 'bench',
            event_type: 'DOCUMENT_FILED',
          }),
        }),
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

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
