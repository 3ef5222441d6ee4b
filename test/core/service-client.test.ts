import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceConnection } from '../../main/service/service-client';
import { ServiceClient } from '../../main/service/service-client';
import { DEFAULT_PACING } from '../../main/service/retry-policy';
import { describeRow } from '../../main/cli/output';
import { METADATA, openCore, useSandboxProfile, workspace } from '../support/core';
import type { Sandbox } from '../../sandbox/server';
import { certificationBody, startTestSandbox } from '../support/sandbox';
import { englishOf } from '../support/english';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.stop());

const connection = (overrides: Partial<ServiceConnection> = {}): ServiceConnection => ({
  baseUrl: sandbox.baseUrl,
  tokenUrl: sandbox.tokenUrl,
  clientId: sandbox.demoClient.clientId,
  clientSecret: sandbox.demoClient.clientSecret,
  signing: {},
  ...overrides,
});
const input = () =>
  certificationBody() as {
    asset_hash: string;
    asset_type: string;
    source_system: string;
    event_type: string;
  };
const tokensIssued = () => sandbox.db.prepare('SELECT COUNT(*) FROM tokens').pluck().get() as number;

describe('service client against the sandbox', () => {
  it('creates and reads certifications, sharing one token among concurrent callers', async () => {
    const client = new ServiceClient(connection());
    const before = tokensIssued();
    const created = await Promise.all(
      Array.from({ length: 8 }, () => client.createCertification(input(), randomUUID())),
    );
    expect(created.every((r) => r.ok)).toBe(true);
    expect(tokensIssued() - before).toBe(1);
    const first = created[0]!;
    if (!first.ok) throw new Error('unreachable');
    const read = await client.readCertification(first.value.serviceId);
    expect(read).toMatchObject({
      ok: true,
      value: { serviceId: first.value.serviceId, progress: 'in_progress', serviceState: 'pending' },
    });
    expect(read.ok && JSON.parse(read.raw)).toMatchObject({ id: first.value.serviceId });
  });

  it('renews the token before it expires', async () => {
    sandbox.setFaults({ tokenLifetimeSeconds: 1 });
    try {
      const client = new ServiceClient(connection());
      const before = tokensIssued();
      expect((await client.createCertification(input(), randomUUID())).ok).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 850));
      // Still valid for ~150 ms, but past 80 % of its life: a new one is fetched first.
      expect((await client.createCertification(input(), randomUUID())).ok).toBe(true);
      expect(tokensIssued() - before).toBe(2);
    } finally {
      sandbox.setFaults({ tokenLifetimeSeconds: 300 });
    }
  });

  it('on a 401 renews the token once and retries once', async () => {
    const client = new ServiceClient(connection());
    expect((await client.createCertification(input(), randomUUID())).ok).toBe(true);
    sandbox.db.exec('DELETE FROM tokens');
    const result = await client.createCertification(input(), randomUUID());
    expect(result.ok).toBe(true);
    expect(tokensIssued()).toBe(1);
  });

  it('signs requests and sends the API key pair when configured', async () => {
    const strict = sandbox.createClient({ requireSignature: true, requireApiKey: true });
    const base = connection({ clientId: strict.clientId, clientSecret: strict.clientSecret });
    const signed = new ServiceClient({
      ...base,
      signing: { hmacKey: strict.hmacKey, apiKey: strict.apiKey, apiSecret: strict.apiSecret },
    });
    expect((await signed.createCertification(input(), randomUUID())).ok).toBe(true);
    const unsigned = await new ServiceClient({
      ...base,
      signing: { apiKey: strict.apiKey, apiSecret: strict.apiSecret },
    }).createCertification(input(), randomUUID());
    expect(unsigned).toMatchObject({
      ok: false,
      retryable: false,
      status: 401,
      code: 'service_error',
      serviceCode: 'signature_required',
    });
  });

  it('treats a validation error as final and carries the service’s words', async () => {
    const result = await new ServiceClient(connection()).createCertification(
      { ...input(), event_type: 'not valid' },
      randomUUID(),
    );
    expect(result).toMatchObject({
      ok: false,
      retryable: false,
      status: 422,
      code: 'service_error',
      serviceCode: 'validation_failed',
      message: expect.stringMatching(/^The service said: “event_type must be upper-case/),
    });
  });

  it('treats 5xx as retryable and reads Retry-After', async () => {
    sandbox.setFaults({ errorRate: 1 });
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, () => new ServiceClient(connection()).testConnection()),
      );
      expect(results.every((r) => !r.ok && r.retryable && !r.offline)).toBe(true);
      const unavailable = results.find((r) => !r.ok && r.status === 503);
      expect(unavailable).toMatchObject({ retryAfterMs: 1000 });
    } finally {
      sandbox.setFaults({ errorRate: 0 });
    }
  });

  it('knows when the service cannot be reached or does not answer in time', async () => {
    const vacated = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => vacated.once('listening', resolve));
    const port = (vacated.address() as AddressInfo).port;
    await new Promise((resolve) => vacated.close(resolve));
    const closed = await new ServiceClient(
      connection({ baseUrl: `http://127.0.0.1:${port}`, tokenUrl: `http://127.0.0.1:${port}/oauth/token` }),
    ).createCertification(input(), randomUUID());
    expect(closed).toMatchObject({
      ok: false,
      retryable: true,
      offline: true,
      code: 'unreachable',
      message: expect.stringMatching(/cannot be reached: nothing answers at that address/),
    });
    sandbox.setFaults({ latencyMs: 400 });
    try {
      const slow = await new ServiceClient(connection({ timeoutMs: 150 })).createCertification(
        input(),
        randomUUID(),
      );
      expect(slow).toMatchObject({ ok: false, offline: true, code: 'timeout' });
    } finally {
      sandbox.setFaults({ latencyMs: 0 });
    }
  });
});

describe('service client against a misbehaving service', () => {
  // A stand-in for the real service answering in shapes the sandbox never produces: the only
  // way to see the client meet them here. Everything else in this suite uses the real sandbox.
  it('fails one request, with a clear reason and the raw answer kept, when the response is unreadable', async () => {
    const answers = [
      [200, 'text/plain', 'OK'],
      [201, 'application/json', '{"state":"pending"}'],
      [201, 'application/json', '["cert_1"]'],
      [502, 'text/html', '<html>Bad gateway</html>'],
      [201, 'application/json', '{"certification_id":77,"status":"QUEUED","extra":{"deep":true}}'],
      // A status outside HTTP's range, and an answer compressed without being asked: as fetch reads them.
      [999, 'text/plain', 'odd'],
      [201, 'application/json', '{"certification_id":78,"status":"QUEUED"}', 'gzip'],
    ] as const;
    let next = 0;
    const server = createServer((request, response) => {
      if (request.url === '/oauth/token') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"t"}');
        return;
      }
      const [status, type, body, encoding] = answers[next++]!;
      if (encoding)
        response
          .writeHead(status, { 'content-type': type, 'content-encoding': encoding })
          .end(gzipSync(body));
      else response.writeHead(status, { 'content-type': type }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const client = new ServiceClient(connection({ baseUrl: base, tokenUrl: `${base}/oauth/token` }));
      const results = [];
      for (let i = 0; i < answers.length; i++)
        results.push(await client.createCertification(input(), randomUUID()));
      expect(results[0]).toMatchObject({
        ok: false,
        retryable: false,
        code: 'unreadable_response',
        raw: 'OK',
      });
      expect(results[1]).toMatchObject({
        ok: false,
        retryable: false,
        code: 'unreadable_response',
        message: expect.stringMatching(/no id/),
        raw: '{"state":"pending"}',
      });
      expect(results[2]).toMatchObject({ ok: false, retryable: false, code: 'unreadable_response' });
      expect(results[3]).toMatchObject({
        ok: false,
        retryable: true,
        status: 502,
        message: 'The service answered 502 Bad Gateway.',
      });
      expect(results[4]).toMatchObject({
        ok: true,
        value: { serviceId: '77', serviceState: 'QUEUED', progress: 'in_progress' },
      });
      expect(results[5]).toMatchObject({ ok: false, code: 'service_error', status: 999, raw: 'odd' });
      expect(results[6]).toMatchObject({ ok: true, value: { serviceId: '78' } });
    } finally {
      server.close();
    }
  });
});

describe('a real service that chose differently from our sandbox', () => {
  // A stand-in for the real service (its choices are the spec's "not shown"), answering as the
  // test sets it; the client and the engine under test are the real ones.
  let server: ReturnType<typeof createServer>;
  let base: string;
  let other: ReturnType<typeof createServer>;
  let poll: { status: number; type: string; body: string };
  let posted = 0;
  beforeAll(async () => {
    other = createServer((_request, response) =>
      response.writeHead(200).end('{"id":"elsewhere","state":"anchored"}'),
    );
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    server = createServer((request, response) => {
      const url = request.url ?? '';
      if (url === '/oauth/token')
        return void response
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"access_token":"t"}');
      if (request.method === 'POST' && url === '/v1/certifications') {
        posted++;
        return void response.writeHead(202, { location: '/v1/certifications/svc-1' }).end();
      }
      if (request.method === 'POST' && url === '/moved/v1/certifications')
        return void response.writeHead(307, { location: `${elsewhere}/v1/certifications` }).end();
      if (url === '/v1/certifications/svc-1')
        return void response.writeHead(301, { location: '/v2/certifications/svc-1' }).end();
      if (url === '/v1/certifications/svc-away')
        return void response.writeHead(302, { location: `${elsewhere}/v1/certifications/svc-away` }).end();
      if (url === '/v2/certifications/svc-1')
        return void response.writeHead(poll.status, { 'content-type': poll.type }).end(poll.body);
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    other.close();
  });

  it('never follows a redirect off the service, and never re-sends a creation elsewhere', async () => {
    const client = new ServiceClient(connection({ baseUrl: base, tokenUrl: `${base}/oauth/token` }));
    expect(await client.readCertification('svc-away')).toMatchObject({
      ok: false,
      offline: false,
      retryable: false,
      code: 'redirected',
      message: expect.stringMatching(
        /sent this request elsewhere \(302 to http:\/\/127\.0\.0\.1:\d+\/v1\/certifications\/svc-away\)/,
      ),
    });
    const moved = new ServiceClient(
      connection({ baseUrl: `${base}/moved`, tokenUrl: `${base}/oauth/token` }),
    );
    expect(await moved.createCertification(input(), randomUUID())).toMatchObject({
      ok: false,
      code: 'redirected',
    });
  });

  it("follows a 202 to its Location, shows unknown states and failed looks on the row, and keeps the service's word for a rejection", async () => {
    poll = {
      status: 200,
      type: 'application/json',
      body: '{"certification_id":"svc-1","status":"QUEUED_FOR_ANCHOR"}',
    };
    const ws = workspace('evidence-different-');
    const core = await openCore(ws.dataDir, {
      pacing: { ...DEFAULT_PACING, pollFirstMs: 100, pollCapMs: 200 },
    });
    try {
      await useSandboxProfile(core, {
        baseUrl: base,
        tokenUrl: `${base}/oauth/token`,
        createClient: () => ({ clientId: 'cl_1', clientSecret: 'cs_1' }),
      });
      const [row] = core.queue.rows(
        (await core.certify(ws.files({ 'deed.pdf': 'the deed' }), METADATA)).queued,
      );
      const details = () => core.queue.details(row!.id).row;
      // Accepted with an empty 202: read at its Location (through a same-origin redirect), not failed as "not JSON".
      await expect.poll(() => details().serviceState, { timeout: 10_000 }).toBe('QUEUED_FOR_ANCHOR');
      expect(details()).toMatchObject({ state: 'pending', serviceId: 'svc-1', errorMessage: null });
      // The service's own word, said as its own, in the list and on the command line alike.
      expect(describeRow(details())).toBe('pending (the service says "QUEUED_FOR_ANCHOR")');
      expect(posted).toBe(1);

      poll = { status: 200, type: 'text/html', body: '<html>Down for maintenance</html>' };
      await expect
        .poll(() => englishOf(details().errorMessage), { timeout: 10_000 })
        .toMatch(
          /The last look at the service failed: Something answered with a web page instead of the service’s data/,
        );
      expect(details()).toMatchObject({ state: 'pending', rawResponse: '<html>Down for maintenance</html>' });

      poll = {
        status: 200,
        type: 'application/json',
        body: '{"id":"svc-1","state":"REJECTED","failure":{"message":"hash rejected"}}',
      };
      await expect.poll(() => details().state, { timeout: 10_000 }).toBe('failed');
      expect(details()).toMatchObject({ serviceState: 'REJECTED' });
      expect(englishOf(details().errorMessage)).toBe('The service said: “hash rejected”');
    } finally {
      await core.close();
      ws.cleanup();
    }
  }, 30_000);
});
