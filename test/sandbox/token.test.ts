import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import {
  certificationBody,
  fetchToken,
  postCertification,
  problemOf,
  startTestSandbox,
} from '../support/sandbox';

const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('POST /oauth/token (client credentials)', () => {
  let sandbox: Sandbox;
  let tokenUrl: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    tokenUrl = sandbox.tokenUrl;
  });
  afterAll(() => sandbox.stop());

  const demo = () => sandbox.demoClient;
  const post = (body: URLSearchParams | string, headers: Record<string, string> = {}) =>
    fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });

  it('issues a short-lived bearer token for credentials in form fields, never cached', async () => {
    const response = await post(
      form({
        grant_type: 'client_credentials',
        client_id: demo().clientId,
        client_secret: demo().clientSecret,
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    expect(body.access_token).toMatch(/^at_[A-Za-z0-9_-]{43}$/);
  });

  it('accepts client authentication by HTTP Basic', async () => {
    const response = await post(form({ grant_type: 'client_credentials' }), {
      authorization: basic(demo().clientId, demo().clientSecret),
    });
    expect(response.status).toBe(200);
  });

  it('refuses a wrong secret with 401 invalid_client and a Basic challenge', async () => {
    const response = await post(
      form({ grant_type: 'client_credentials', client_id: demo().clientId, client_secret: 'wrong' }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="evidence-sandbox"');
    expect(await problemOf(response)).toMatchObject({ code: 'invalid_client', error: 'invalid_client' });
  });

  it('refuses an unknown client exactly like a wrong secret', async () => {
    const response = await post(
      form({ grant_type: 'client_credentials', client_id: 'cl_nobody', client_secret: 'x' }),
    );
    expect(response.status).toBe(401);
    expect((await problemOf(response)).code).toBe('invalid_client');
  });

  it('refuses missing credentials, and a wrong Basic secret', async () => {
    const none = await post(form({ grant_type: 'client_credentials' }));
    expect(none.status).toBe(401);
    const wrongBasic = await post(form({ grant_type: 'client_credentials' }), {
      authorization: basic(demo().clientId, 'nope'),
    });
    expect(wrongBasic.status).toBe(401);
    expect((await problemOf(wrongBasic)).error).toBe('invalid_client');
  });

  it('refuses two authentication methods at once with invalid_request', async () => {
    const response = await post(
      form({
        grant_type: 'client_credentials',
        client_id: demo().clientId,
        client_secret: demo().clientSecret,
      }),
      {
        authorization: basic(demo().clientId, demo().clientSecret),
      },
    );
    expect(response.status).toBe(400);
    expect((await problemOf(response)).error).toBe('invalid_request');
  });

  it('says which grant is wrong or missing', async () => {
    const other = await post(
      form({ grant_type: 'password', client_id: demo().clientId, client_secret: demo().clientSecret }),
    );
    expect(other.status).toBe(400);
    expect(await problemOf(other)).toMatchObject({
      code: 'unsupported_grant_type',
      error: 'unsupported_grant_type',
    });
    const missing = await post(form({ client_id: demo().clientId, client_secret: demo().clientSecret }));
    expect(missing.status).toBe(400);
    expect((await problemOf(missing)).error).toBe('invalid_request');
  });

  it('refuses a repeated parameter', async () => {
    const response = await post(
      `grant_type=client_credentials&client_id=${demo().clientId}&client_id=x&client_secret=${demo().clientSecret}`,
    );
    expect(response.status).toBe(400);
    expect((await problemOf(response)).error).toBe('invalid_request');
  });

  it('answers JSON and other media types with 415, and other methods with 405', async () => {
    const json = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    expect(json.status).toBe(415);
    expect((await problemOf(json)).error).toBe('invalid_request');
    const xml = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: '<x/>',
    });
    expect(xml.status).toBe(415);
    const get = await fetch(tokenUrl);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

describe('token lifetime', () => {
  it('tokens expire after the configured lifetime and are then refused as expired', async () => {
    const sandbox = await startTestSandbox({ faults: { tokenLifetimeSeconds: 1 } });
    try {
      const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
      expect((await postCertification(sandbox.baseUrl, certificationBody(), { token })).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const expired = await postCertification(sandbox.baseUrl, certificationBody(), { token });
      expect(expired.status).toBe(401);
      expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect((await problemOf(expired)).code).toBe('token_expired');
    } finally {
      await sandbox.stop();
    }
  });
});

describe('token endpoint on its own address ({auth_url})', () => {
  it('serves tokens on the auth port only, and the API accepts them', async () => {
    const sandbox = await startTestSandbox({ authPort: 0 });
    try {
      expect(new URL(sandbox.tokenUrl).port).not.toBe(new URL(sandbox.baseUrl).port);
      const onApi = await fetch(`${sandbox.baseUrl}/oauth/token`, { method: 'POST' });
      expect(onApi.status).toBe(404);
      const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
      expect((await postCertification(sandbox.baseUrl, certificationBody(), { token })).status).toBe(201);
    } finally {
      await sandbox.stop();
    }
  });
});
