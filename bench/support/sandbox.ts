import { createHash, randomUUID } from 'node:crypto';
import type { Served } from './processes';
import { serve } from './processes';

export interface SandboxInfo {
  baseUrl: string;
  tokenUrl: string;
  client: { clientId: string; clientSecret: string };
}

/** A sandbox in its own process, so it does not share a core with the load it is measured under. */
export function serveSandbox(): Promise<Served<SandboxInfo>> {
  return serve<SandboxInfo>('serve-sandbox');
}

export async function accessToken(info: SandboxInfo): Promise<string> {
  const response = await fetch(info.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: info.client.clientId,
      client_secret: info.client.clientSecret,
    }),
  });
  if (!response.ok) throw new Error(`token request failed: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A fresh creation request, as a load generator sends it: new id, new asset each time. */
export function freshCreation(): { headers: Record<string, string>; body: string } {
  return {
    headers: { 'x-request-id': randomUUID() },
    body: JSON.stringify({
      asset_hash: sha256(randomUUID()),
      asset_type: 'document',
      source_system: 'bench',
      event_type: 'DOCUMENT_FILED',
    }),
  };
}
