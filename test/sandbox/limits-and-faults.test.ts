import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import {
  certificationBody,
  requestToken,
  fetchToken,
  getCertification,
  postCertification,
  problemOf,
  startTestSandbox,
} from '../support/sandbox';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After once a client exceeds its limit, without slowing other clients', async () => {
    sandbox = await startTestSandbox({ rateLimit: { max: 3, windowMs: 60_000 } });
    const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 4; i++) {
      const response = await getCertification(sandbox.baseUrl, 'cert_x', token);
      statuses.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(statuses).toEqual([404, 404, 404, 429]);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await problemOf(limited!)).code).toBe('rate_limited');

    const other = sandbox.createClient();
    const otherToken = await fetchToken(sandbox.tokenUrl, other);
    expect((await getCertification(sandbox.baseUrl, 'cert_x', otherToken)).status).toBe(404);
  });
});

describe('fault injection', () => {
  it('answers a configured share of requests with 500 or 503 problems and changes nothing', async () => {
    sandbox = await startTestSandbox();
    const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
    sandbox.setFaults({ errorRate: 1 });
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const response = await postCertification(sandbox.baseUrl, certificationBody(), { token });
      statuses.add(response.status);
      const problem = await problemOf(response);
      expect(problem.code).toBe('fault_injected');
      if (response.status === 503) expect(response.headers.get('retry-after')).toBe('1');
    }
    expect([...statuses].sort()).toEqual([500, 503]);
    expect(sandbox.db.prepare('SELECT COUNT(*) FROM certifications').pluck().get()).toBe(0);
    // The token endpoint fails too: a client must survive losing it.
    const tokenResponse = await fetch(sandbox.tokenUrl, { method: 'POST' });
    expect([500, 503]).toContain(tokenResponse.status);
  });

  it('drops connections before doing anything', async () => {
    sandbox = await startTestSandbox();
    const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
    sandbox.setFaults({ dropRate: 1 });
    await expect(postCertification(sandbox.baseUrl, certificationBody(), { token })).rejects.toThrow(
      /fetch failed/,
    );
    expect(sandbox.db.prepare('SELECT COUNT(*) FROM certifications').pluck().get()).toBe(0);
  });

  it('drops the reply after storing: a retry with the same X-Request-Id gets the record, not a duplicate', async () => {
    sandbox = await startTestSandbox();
    const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
    const body = certificationBody();
    const requestId = randomUUID();
    sandbox.setFaults({ dropResponseRate: 1 });
    await expect(postCertification(sandbox.baseUrl, body, { token, requestId })).rejects.toThrow(
      /fetch failed/,
    );
    sandbox.setFaults({ dropResponseRate: 0 });
    const retry = await postCertification(sandbox.baseUrl, body, { token, requestId });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(sandbox.db.prepare('SELECT COUNT(*) FROM certifications').pluck().get()).toBe(1);
  });

  it('adds latency to each request', async () => {
    sandbox = await startTestSandbox({ faults: { latencyMs: 300 } });
    const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
    const started = performance.now();
    await getCertification(sandbox.baseUrl, 'cert_x', token);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('takes fault settings at run time over the admin API, only with the admin token', async () => {
    sandbox = await startTestSandbox();
    const url = `${sandbox.baseUrl}/_sandbox/faults`;
    const patch = (body: unknown, token?: string) =>
      fetch(url, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', ...(token ? { 'x-sandbox-admin-token': token } : {}) },
        body: JSON.stringify(body),
      });
    expect((await patch({ errorRate: 1 })).status).toBe(401);
    expect((await patch({ errorRate: 1 }, 'wrong')).status).toBe(401);
    const bad = await patch({ errorRate: 2 }, sandbox.adminToken);
    expect(bad.status).toBe(422);
    const bogus = await patch({ explode: true }, sandbox.adminToken);
    expect(bogus.status).toBe(422);
    const ok = await patch({ tokenLifetimeSeconds: 5, anchorFailureRate: 0.5 }, sandbox.adminToken);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ tokenLifetimeSeconds: 5, anchorFailureRate: 0.5, errorRate: 0 });
    expect((await requestToken(sandbox.tokenUrl, sandbox.demoClient)).expires_in).toBe(5);

    const admin = { 'x-sandbox-admin-token': sandbox.adminToken, 'content-type': 'application/json' };
    const client = await fetch(`${sandbox.baseUrl}/_sandbox/clients`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'via admin', require_signature: true }),
    });
    expect(client.status).toBe(201);
    const created = (await client.json()) as {
      clientId: string;
      clientSecret: string;
      requireSignature: boolean;
    };
    expect(created.requireSignature).toBe(true);
    expect(await fetchToken(sandbox.tokenUrl, created)).toMatch(/^at_/);
    const stats = await fetch(`${sandbox.baseUrl}/_sandbox/stats`, { headers: admin });
    expect(await stats.json()).toEqual({
      certifications: { pending: 0, anchored: 0, failed: 0 },
      tree_size: 0,
    });
  });
});
