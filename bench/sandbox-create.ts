import { createHash, randomUUID } from 'node:crypto';
import type { BenchFigure } from './figure';
import { drive } from './support/load';
import { serve } from './support/processes';

interface SandboxInfo {
  baseUrl: string;
  tokenUrl: string;
  client: { clientId: string; clientSecret: string };
}

/**
 * Certification creation rate against the sandbox, as a share of what the same framework
 * answers on a bare route on this machine in this run: the cost of auth, validation,
 * idempotency and the SQLite write.
 */
export async function sandboxCreationThroughput(seconds: number): Promise<BenchFigure> {
  const sandbox = await serve<SandboxInfo>('bench/support/serve-sandbox.ts');
  const empty = await serve<{ baseUrl: string }>('bench/support/serve-empty.ts');
  try {
    const tokenResponse = await fetch(sandbox.info.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: sandbox.info.client.clientId,
        client_secret: sandbox.info.client.clientSecret,
      }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const body = () =>
      JSON.stringify({
        asset_hash: createHash('sha256').update(randomUUID()).digest('hex'),
        asset_type: 'document',
        source_system: 'bench',
        event_type: 'DOCUMENT_SIGNED',
      });
    // Both runs send the same headers and fresh bodies, so the load generator costs the same in each.
    const common = {
      method: 'POST' as const,
      seconds,
      connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      vary: () => ({ headers: { 'x-request-id': randomUUID() }, body: body() }),
    };
    const reference = await drive({ ...common, url: `${empty.info.baseUrl}/empty` }, 200);
    const measured = await drive({ ...common, url: `${sandbox.info.baseUrl}/v1/certifications` }, 201);
    return {
      name: 'sandbox: create certification',
      value: measured.requestsPerSecond,
      reference: reference.requestsPerSecond,
      unit: 'req/s',
      referenceName: 'bare Fastify route',
      failures: measured.unexpected + reference.unexpected,
    };
  } finally {
    await Promise.all([sandbox.stop(), empty.stop()]);
  }
}
