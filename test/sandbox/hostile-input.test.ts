import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { fetchToken, requestToken, startTestSandbox } from '../support/sandbox';

// Raw HTTP on a socket, as a broken or hostile client would send it, against the real sandbox.
let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ requestTimeoutMs: 1000 });
  token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
});
afterAll(() => sandbox.stop());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function raw(text: string, { waitMs = 5000 } = {}): Promise<RawAnswer & { closedAfterMs: number }> {
  const { port, hostname } = new URL(sandbox.baseUrl);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let out = '';
    socket.on('data', (chunk) => (out += chunk.toString()));
    socket.on('error', reject);
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', ...rest] = out.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: rest.join('\r\n\r\n'),
        closedAfterMs: Date.now() - started,
      });
    });
  });
}

const get = (path: string, extra = '') =>
  raw(
    `GET ${path} HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${token}\r\n${extra}Connection: close\r\n\r\n`,
  );

function expectProblem(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(answer.body.replace(/^[0-9a-f]+\r\n|\r\n0\r\n$/g, '')) as Record<string, unknown>;
  expect(body).toMatchObject({ status, code });
  expect(JSON.stringify(body)).not.toMatch(/FST_|Client Error|stack/);
}

describe('every error the sandbox can emit is problem+json with a documented code', () => {
  it('answers a deeply nested ignored field with 400, not a crash', async () => {
    const deep = '['.repeat(3000) + ']'.repeat(3000);
    const body = `{"asset_hash":"${'a'.repeat(64)}","asset_type":"document","source_system":"s","event_type":"E","extra":${deep}}`;
    const answer = await raw(
      `POST /v1/certifications HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${token}\r\n` +
        `X-Request-Id: 2b0c2f62-6a40-4c1e-9d8e-1f4f5f3c9a10\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expectProblem(answer, 400, 'body_too_deep');
  });

  it('answers bad addresses, long ids, huge headers, broken HTTP and a missing Host', async () => {
    expectProblem(await get('/v1/certifications/%zz'), 400, 'bad_url');
    expectProblem(await get(`/v1/certifications/${'a'.repeat(150)}`), 404, 'certification_not_found');
    expectProblem(await get(`/v1/certifications/${'a'.repeat(1500)}`), 414, 'uri_too_long');
    expectProblem(
      await get('/v1/certifications/x', `X-Big: ${'a'.repeat(20_000)}\r\n`),
      431,
      'headers_too_large',
    );
    expectProblem(await raw('HELLO THERE\r\n\r\n'), 400, 'malformed_request');
    expectProblem(
      await raw('GET /v1/certifications/x HTTP/1.1\r\nConnection: close\r\n\r\n'),
      400,
      'host_required',
    );
  });

  it('does not let a half-sent request hold a connection', async () => {
    const answer = await raw(
      `POST /v1/certifications HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${token}\r\n` +
        `X-Request-Id: 4d2e3f8b-6c7a-4b9c-8d1e-2f3a4b5c6d7e\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"asset`,
      { waitMs: 10_000 },
    );
    expectProblem(answer, 408, 'request_timeout');
    // Configured at 1 s here (15 s by default); checked every second.
    expect(answer.closedAfterMs).toBeLessThan(4_000);
  });
});

describe('authentication details the RFCs require', () => {
  it('puts a WWW-Authenticate challenge on every 401, API key and signature ones included', async () => {
    const strict = sandbox.createClient({ requireApiKey: true, requireSignature: true });
    const strictToken = await fetchToken(sandbox.tokenUrl, strict);
    const noKey = await raw(
      `GET /v1/certifications/x HTTP/1.1\r\nHost: s\r\nAuthorization: Bearer ${strictToken}\r\nConnection: close\r\n\r\n`,
    );
    expectProblem(noKey, 401, 'api_key_required');
    expect(noKey.headers['www-authenticate']).toBe('ApiKey realm="evidence-sandbox"');

    const body = JSON.stringify({
      asset_hash: 'b'.repeat(64),
      asset_type: 'document',
      source_system: 's',
      event_type: 'E',
    });
    const unsigned = await raw(
      `POST /v1/certifications HTTP/1.1\r\nHost: s\r\nAuthorization: Bearer ${strictToken}\r\n` +
        `X-API-Key: ${strict.apiKey}\r\nX-API-Secret: ${strict.apiSecret}\r\nX-Request-Id: 3c1d2e7a-5b6f-4a8b-9c0d-1e2f3a4b5c6d\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expectProblem(unsigned, 401, 'signature_required');
    expect(unsigned.headers['www-authenticate']).toBe('ServiceSignature realm="evidence-sandbox"');
  });

  it('calls "Bearer" with no token a malformed request (400 invalid_request)', async () => {
    const answer = await raw(
      'GET /v1/certifications/x HTTP/1.1\r\nHost: s\r\nAuthorization: Bearer \r\nConnection: close\r\n\r\n',
    );
    expectProblem(answer, 400, 'token_malformed');
    expect(answer.headers['www-authenticate']).toMatch(/error="invalid_request"/);
  });

  it('says which scope it granted when another was asked for', async () => {
    const asked = async (scope: string) => {
      const response = await fetch(sandbox.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: sandbox.demoClient.clientId,
          client_secret: sandbox.demoClient.clientSecret,
          scope,
        }),
      });
      return (await response.json()) as { scope?: string };
    };
    expect((await asked('admin everything')).scope).toBe('certifications');
    expect((await asked('certifications')).scope).toBeUndefined();
    expect(await requestToken(sandbox.tokenUrl, sandbox.demoClient)).not.toHaveProperty('scope');
  });
});
