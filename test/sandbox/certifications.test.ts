import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientCredentials } from '../../sandbox/clients';
import type { Sandbox } from '../../sandbox/server';
import {
  certificationBody,
  fetchToken,
  getCertification,
  postCertification,
  problemOf,
  signatureHeader,
  startTestSandbox,
} from '../support/sandbox';

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
});
afterAll(() => sandbox.stop());

describe('POST /v1/certifications', () => {
  it('creates a pending certification and answers 201 with its location and record', async () => {
    const body = certificationBody();
    const response = await postCertification(sandbox.baseUrl, body, { token, requestId: 'req-create-1' });
    expect(response.status).toBe(201);
    const record = (await response.json()) as Record<string, unknown>;
    expect(response.headers.get('location')).toBe(`/v1/certifications/${String(record.id)}`);
    expect(response.headers.get('x-request-id')).toBe('req-create-1');
    expect(record).toMatchObject({
      ...body,
      state: 'pending',
      request_id: 'req-create-1',
      evidence: null,
      anchored_at: null,
    });
    expect(String(record.id)).toMatch(/^cert_[0-9a-f-]{36}$/);
    expect(Date.parse(String(record.created_at))).toBeGreaterThan(Date.now() - 60_000);
  });

  it('stores the hash in lower case and ignores fields it does not know', async () => {
    const hash = 'ABCDEF'.padEnd(64, '0');
    const response = await postCertification(
      sandbox.baseUrl,
      certificationBody({ asset_hash: hash, matter: 'Smith v Jones' }),
      { token },
    );
    expect(response.status).toBe(201);
    const record = (await response.json()) as Record<string, unknown>;
    expect(record.asset_hash).toBe(hash.toLowerCase());
    expect(record).not.toHaveProperty('matter');
  });

  it.each([
    ['asset_hash', { asset_hash: 'abc' }, 'invalid_format'],
    ['asset_hash', { asset_hash: 'g'.repeat(64) }, 'invalid_format'],
    ['asset_hash', { asset_hash: undefined }, 'required'],
    ['asset_hash', { asset_hash: 42 }, 'wrong_type'],
    ['asset_type', { asset_type: '   ' }, 'empty'],
    ['asset_type', { asset_type: 'x'.repeat(65) }, 'too_long'],
    ['source_system', { source_system: 'a\u0000b' }, 'invalid_format'],
    ['source_system', { source_system: 's'.repeat(129) }, 'too_long'],
    ['event_type', { event_type: 'document signed' }, 'invalid_format'],
    ['event_type', { event_type: 'Document_Signed' }, 'invalid_format'],
    ['event_type', { event_type: '_SIGNED' }, 'invalid_format'],
    ['event_type', { event_type: 'SIGNED__TWICE' }, 'invalid_format'],
  ])('refuses a bad %s (%j) with 422 and a per-field error', async (field, change, code) => {
    const response = await postCertification(sandbox.baseUrl, certificationBody(change), { token });
    expect(response.status).toBe(422);
    const problem = await problemOf(response);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([expect.objectContaining({ field, code })]);
  });

  it('lists every bad field at once', async () => {
    const response = await postCertification(
      sandbox.baseUrl,
      { asset_hash: 'x', event_type: 'lower' },
      { token },
    );
    const problem = await problemOf(response);
    expect(problem.errors?.map((e) => e.field).sort()).toEqual([
      'asset_hash',
      'asset_type',
      'event_type',
      'source_system',
    ]);
  });

  it('refuses a body that is not an object, malformed JSON, a wrong media type and an oversized body', async () => {
    const array = await postCertification(sandbox.baseUrl, [], { token });
    expect(array.status).toBe(422);
    expect((await problemOf(array)).errors?.[0]?.field).toBe('body');
    const malformed = await postCertification(sandbox.baseUrl, null, { token, rawBody: '{"asset_hash": ' });
    expect(malformed.status).toBe(400);
    expect((await problemOf(malformed)).code).toBe('malformed_json');
    const text = await postCertification(sandbox.baseUrl, null, {
      token,
      rawBody: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect((await problemOf(text)).code).toBe('unsupported_media_type');
    const huge = await postCertification(
      sandbox.baseUrl,
      certificationBody({ padding: 'x'.repeat(20_000) }),
      { token },
    );
    expect(huge.status).toBe(413);
    expect((await problemOf(huge)).code).toBe('body_too_large');
  });

  it('requires a well-formed X-Request-Id', async () => {
    const missing = await postCertification(sandbox.baseUrl, certificationBody(), { token, requestId: null });
    expect(missing.status).toBe(400);
    expect((await problemOf(missing)).code).toBe('request_id_required');
    const bad = await postCertification(sandbox.baseUrl, certificationBody(), {
      token,
      requestId: 'has spaces in it',
    });
    expect(bad.status).toBe(400);
    expect((await problemOf(bad)).code).toBe('request_id_invalid');
  });
});

describe('idempotency by X-Request-Id', () => {
  it('replays the first response for the same id and body, creating nothing new', async () => {
    const body = certificationBody();
    const requestId = randomUUID();
    const first = await postCertification(sandbox.baseUrl, body, { token, requestId });
    const firstRecord = await first.json();
    // Same content, other key order and spacing: still the same request.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(body).reverse()), null, 2);
    const again = await postCertification(sandbox.baseUrl, null, { token, requestId, rawBody: reordered });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await again.json()).toEqual(firstRecord);
    const count = sandbox.db
      .prepare('SELECT COUNT(*) FROM certifications WHERE request_id = ?')
      .pluck()
      .get(requestId);
    expect(count).toBe(1);
  });

  it('refuses the same id with a different body (422)', async () => {
    const requestId = randomUUID();
    await postCertification(sandbox.baseUrl, certificationBody(), { token, requestId });
    const other = await postCertification(sandbox.baseUrl, certificationBody(), { token, requestId });
    expect(other.status).toBe(422);
    expect((await problemOf(other)).code).toBe('request_id_reused');
  });

  it('refuses the same id while the first request is still in flight (409)', async () => {
    sandbox.setFaults({ latencyMs: 400 });
    try {
      const body = certificationBody();
      const requestId = randomUUID();
      const first = postCertification(sandbox.baseUrl, body, { token, requestId });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = await postCertification(sandbox.baseUrl, body, { token, requestId });
      expect(second.status).toBe(409);
      expect(second.headers.get('retry-after')).toBe('1');
      expect((await problemOf(second)).code).toBe('request_in_progress');
      expect((await first).status).toBe(201);
      const third = await postCertification(sandbox.baseUrl, body, { token, requestId });
      expect(third.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      sandbox.setFaults({ latencyMs: 0 });
    }
  });

  it('keeps request ids per client: another client may use the same id', async () => {
    const other = sandbox.createClient({ name: 'other' });
    const otherToken = await fetchToken(sandbox.tokenUrl, other);
    const requestId = randomUUID();
    const mine = await postCertification(sandbox.baseUrl, certificationBody(), { token, requestId });
    const theirs = await postCertification(sandbox.baseUrl, certificationBody(), {
      token: otherToken,
      requestId,
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
  });
});

describe('GET /v1/certifications/{id}', () => {
  it('reads back the record', async () => {
    const created = (await (
      await postCertification(sandbox.baseUrl, certificationBody(), { token })
    ).json()) as { id: string };
    const response = await getCertification(sandbox.baseUrl, created.id, token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: created.id, state: 'pending' });
  });

  it('answers 404 for an unknown id and for another client’s certification alike', async () => {
    const other = sandbox.createClient({ name: 'nosy' });
    const otherToken = await fetchToken(sandbox.tokenUrl, other);
    const created = (await (
      await postCertification(sandbox.baseUrl, certificationBody(), { token })
    ).json()) as { id: string };
    const foreign = await getCertification(sandbox.baseUrl, created.id, otherToken);
    const unknown = await getCertification(sandbox.baseUrl, 'cert_does-not-exist', otherToken);
    expect([foreign.status, unknown.status]).toEqual([404, 404]);
    expect(await problemOf(foreign)).toEqual({ ...(await problemOf(unknown)), instance: expect.any(String) });
  });
});

describe('bearer tokens on the API', () => {
  it('refuses a missing, unknown or malformed token with RFC 6750 challenges', async () => {
    const none = await fetch(`${sandbox.baseUrl}/v1/certifications/x`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="evidence-sandbox"');
    expect((await problemOf(none)).code).toBe('token_missing');
    const unknown = await getCertification(sandbox.baseUrl, 'x', 'at_forged');
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await problemOf(unknown)).code).toBe('token_invalid');
    const basicScheme = await fetch(`${sandbox.baseUrl}/v1/certifications/x`, {
      headers: { authorization: 'Basic abc' },
    });
    expect((await problemOf(basicScheme)).code).toBe('token_missing');
  });
});

describe('X-API-Key / X-API-Secret', () => {
  let client: ClientCredentials;
  let clientToken: string;
  beforeAll(async () => {
    client = sandbox.createClient({ name: 'keyed', requireApiKey: true });
    clientToken = await fetchToken(sandbox.tokenUrl, client);
  });
  const keyHeaders = (key: string, secret: string) => ({ 'x-api-key': key, 'x-api-secret': secret });

  it('complements the bearer token: the right pair is accepted', async () => {
    const response = await postCertification(sandbox.baseUrl, certificationBody(), {
      token: clientToken,
      headers: keyHeaders(client.apiKey, client.apiSecret),
    });
    expect(response.status).toBe(201);
  });

  it('is refused when required and missing, wrong, or another client’s', async () => {
    const missing = await postCertification(sandbox.baseUrl, certificationBody(), { token: clientToken });
    expect((await problemOf(missing)).code).toBe('api_key_required');
    const wrong = await postCertification(sandbox.baseUrl, certificationBody(), {
      token: clientToken,
      headers: keyHeaders(client.apiKey, 'as_wrong'),
    });
    expect(wrong.status).toBe(401);
    expect((await problemOf(wrong)).code).toBe('api_key_invalid');
    const demo = sandbox.demoClient;
    const foreign = await postCertification(sandbox.baseUrl, certificationBody(), {
      token: clientToken,
      headers: keyHeaders(demo.apiKey, demo.apiSecret),
    });
    expect((await problemOf(foreign)).code).toBe('api_key_invalid');
  });

  it('is never enough alone', async () => {
    const response = await fetch(`${sandbox.baseUrl}/v1/certifications/x`, {
      headers: keyHeaders(client.apiKey, client.apiSecret),
    });
    expect(response.status).toBe(401);
    expect((await problemOf(response)).code).toBe('token_missing');
  });
});

describe('X-Service-Signature', () => {
  let signer: ClientCredentials;
  let signerToken: string;
  beforeAll(async () => {
    signer = sandbox.createClient({ name: 'signer', requireSignature: true });
    signerToken = await fetchToken(sandbox.tokenUrl, signer);
  });
  const signedPost = (body: string, requestId: string, signature?: string) =>
    postCertification(sandbox.baseUrl, null, {
      token: signerToken,
      requestId,
      rawBody: body,
      headers: signature ? { 'x-service-signature': signature } : {},
    });

  it('accepts a request signed as docs/api.md describes', async () => {
    const body = JSON.stringify(certificationBody());
    const requestId = randomUUID();
    const response = await signedPost(body, requestId, signatureHeader(signer.hmacKey, requestId, body));
    expect(response.status).toBe(201);
  });

  it('refuses a missing, wrong, stale or malformed signature when the client must sign', async () => {
    const body = JSON.stringify(certificationBody());
    const requestId = randomUUID();
    const cases: [string | undefined, string][] = [
      [undefined, 'signature_required'],
      [signatureHeader('hk_not-the-key', requestId, body), 'signature_invalid'],
      [signatureHeader(signer.hmacKey, requestId, `${body} `), 'signature_invalid'],
      [signatureHeader(signer.hmacKey, 'another-request-id', body), 'signature_invalid'],
      [
        signatureHeader(signer.hmacKey, requestId, body, Math.floor(Date.now() / 1000) - 301),
        'signature_expired',
      ],
      ['sha256=abc', 'signature_malformed'],
    ];
    for (const [signature, code] of cases) {
      const response = await signedPost(body, requestId, signature);
      expect(response.status, code).toBe(401);
      expect((await problemOf(response)).code).toBe(code);
    }
    const count = sandbox.db
      .prepare('SELECT COUNT(*) FROM certifications WHERE request_id = ?')
      .pluck()
      .get(requestId);
    expect(count).toBe(0);
  });

  it('checks a signature that is sent even when it is optional', async () => {
    const body = JSON.stringify(certificationBody());
    const requestId = randomUUID();
    const response = await postCertification(sandbox.baseUrl, null, {
      token,
      requestId,
      rawBody: body,
      headers: { 'x-service-signature': signatureHeader('hk_wrong', requestId, body) },
    });
    expect((await problemOf(response)).code).toBe('signature_invalid');
  });
});

describe('routes and methods', () => {
  it('answers unknown routes with 404 and wrong methods with 405 and Allow', async () => {
    const unknown = await fetch(`${sandbox.baseUrl}/v2/certifications`);
    expect(unknown.status).toBe(404);
    expect((await problemOf(unknown)).code).toBe('not_found');
    const remove = await fetch(`${sandbox.baseUrl}/v1/certifications/abc`, { method: 'DELETE' });
    expect(remove.status).toBe(405);
    expect(remove.headers.get('allow')).toBe('GET, HEAD');
    const list = await fetch(`${sandbox.baseUrl}/v1/certifications`);
    expect(list.status).toBe(405);
    expect(list.headers.get('allow')).toBe('POST');
  });
});
