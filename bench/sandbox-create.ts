import type { BenchFigure } from './figure';
import { drive } from './support/load';
import { serve } from './support/processes';
import { accessToken, freshCreation, serveSandbox } from './support/sandbox';

/**
 * Certification creation rate against the sandbox, as a share of what the same framework
 * answers on a bare route on this machine in this run: the cost of auth, validation,
 * idempotency and the SQLite write.
 */
export async function sandboxCreationThroughput(seconds: number): Promise<BenchFigure> {
  const sandbox = await serveSandbox();
  const empty = await serve<{ baseUrl: string }>('serve-empty');
  try {
    const token = await accessToken(sandbox.info);
    // Both runs send the same headers and fresh bodies, so the load generator costs the same in each.
    const common = {
      method: 'POST' as const,
      seconds,
      connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      vary: freshCreation,
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
