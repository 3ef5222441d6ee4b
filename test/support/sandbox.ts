import { createHash, createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientCredentials } from '../../sandbox/clients';
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';

/** A sandbox on a free loopback port with its own SQLite file, removed by `stop`. */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-sandbox-'));
  // A long batch interval: tests anchor explicitly with anchorNow() unless they say otherwise.
  const sandbox = await startSandbox({
    dbPath: join(dir, 'sandbox.sqlite'),
    port: 0,
    batchIntervalMs: 3_600_000,
    ...options,
  });
  return {
    ...sandbox,
    dir,
    stop: async () => {
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The token endpoint's whole answer for a client's credentials (form fields). */
export async function requestToken(
  tokenUrl: string,
  client: Pick<ClientCredentials, 'clientId' | 'clientSecret'>,
): Promise<{ access_token: string; expires_in: number; token_type: string }> {
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
  });
  if (response.status !== 200)
    throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as never;
}

export async function fetchToken(
  tokenUrl: string,
  client: Pick<ClientCredentials, 'clientId' | 'clientSecret'>,
): Promise<string> {
  return (await requestToken(tokenUrl, client)).access_token;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

export function certificationBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    asset_hash: sha256Hex(randomUUID()),
    asset_type: 'document',
    source_system: 'evidence-desk-tests',
    event_type: 'DOCUMENT_SIGNED',
    ...overrides,
  };
}

export interface PostOptions {
  token: string;
  requestId?: string | null;
  headers?: Record<string, string>;
  rawBody?: string;
}

export function postCertification(baseUrl: string, body: unknown, options: PostOptions): Promise<Response> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.token}`,
    'content-type': 'application/json',
    ...options.headers,
  };
  if (options.requestId !== null) headers['x-request-id'] = options.requestId ?? randomUUID();
  return fetch(`${baseUrl}/v1/certifications`, {
    method: 'POST',
    headers,
    body: options.rawBody ?? JSON.stringify(body),
  });
}

export function getCertification(baseUrl: string, id: string, token: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/certifications/${encodeURIComponent(id)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
}

/**
 * X-Service-Signature written straight from docs/api.md, independently of the sandbox's own
 * checker, so a drift between the document and the code fails a test.
 */
export function signatureHeader(
  hmacKey: string,
  requestId: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  const payload = `v1\n${timestamp}\nPOST\n/v1/certifications\n${requestId}\n${bodyHash}`;
  return `t=${timestamp},v1=${createHmac('sha256', hmacKey).update(payload).digest('hex')}`;
}

export async function problemOf(response: Response): Promise<{
  code: string;
  status: number;
  detail: string;
  errors?: { field: string; code: string }[];
  error?: string;
}> {
  if (!response.headers.get('content-type')?.startsWith('application/problem+json')) {
    throw new Error(
      `expected problem+json, got ${response.headers.get('content-type')} (${response.status})`,
    );
  }
  return (await response.json()) as never;
}
