import { randomBytes } from 'node:crypto';
import type { SandboxDb } from './db';
import { getSetting, setSetting, sql } from './db';
import { digest, newCredential, sameDigest } from './secrets';

export interface ClientOptions {
  name?: string;
  requireSignature?: boolean;
  requireApiKey?: boolean;
}

/** Everything a newly created client needs, shown once: the sandbox keeps only digests of the secrets. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  apiSecret: string;
  hmacKey: string;
  name: string;
  requireSignature: boolean;
  requireApiKey: boolean;
}

export interface Client {
  clientId: string;
  name: string;
  apiKey: string;
  apiSecretHash: string;
  hmacKey: string;
  requireSignature: boolean;
  requireApiKey: boolean;
}

interface ClientRow {
  client_id: string;
  name: string;
  secret_hash: string;
  api_key: string;
  api_secret_hash: string;
  hmac_key: string;
  require_signature: number;
  require_api_key: number;
}

export function createClient(db: SandboxDb, options: ClientOptions = {}): ClientCredentials {
  const credentials: ClientCredentials = {
    clientId: `cl_${randomBytes(8).toString('hex')}`,
    clientSecret: newCredential('cs'),
    apiKey: `ak_${randomBytes(12).toString('hex')}`,
    apiSecret: newCredential('as'),
    hmacKey: newCredential('hk'),
    name: options.name ?? 'unnamed client',
    requireSignature: options.requireSignature ?? false,
    requireApiKey: options.requireApiKey ?? false,
  };
  sql(
    db,
    `INSERT INTO clients (client_id, name, secret_hash, api_key, api_secret_hash, hmac_key, require_signature, require_api_key, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    credentials.clientId,
    credentials.name,
    digest(credentials.clientSecret),
    credentials.apiKey,
    digest(credentials.apiSecret),
    // The HMAC key must be readable to check signatures with it: the sandbox is no vault.
    credentials.hmacKey,
    credentials.requireSignature ? 1 : 0,
    credentials.requireApiKey ? 1 : 0,
    Date.now(),
  );
  return credentials;
}

export function findClient(db: SandboxDb, clientId: string): Client | undefined {
  const row = sql(db, 'SELECT * FROM clients WHERE client_id = ?').get(clientId) as ClientRow | undefined;
  return row && toClient(row);
}

/** The client whose id and secret these are, or undefined: an unknown id and a wrong secret look the same. */
export function authenticateClient(
  db: SandboxDb,
  clientId: string,
  clientSecret: string,
): Client | undefined {
  const row = sql(db, 'SELECT * FROM clients WHERE client_id = ?').get(clientId) as ClientRow | undefined;
  if (!row || !sameDigest(clientSecret, row.secret_hash)) return undefined;
  return toClient(row);
}

export function listClients(db: SandboxDb): Client[] {
  return (sql(db, 'SELECT * FROM clients ORDER BY created_at').all() as ClientRow[]).map(toClient);
}

const DEMO_CLIENT_SETTING = 'demo_client_credentials';

/**
 * The demo client every sandbox has, created on first start. Its credentials are kept readable
 * in the sandbox database (and only its) so every start can print them for a newcomer.
 */
export function ensureDemoClient(db: SandboxDb): ClientCredentials {
  const stored = getSetting(db, DEMO_CLIENT_SETTING);
  if (stored) return JSON.parse(stored) as ClientCredentials;
  const demo = db.transaction(() => {
    const credentials = createClient(db, { name: 'demo' });
    setSetting(db, DEMO_CLIENT_SETTING, JSON.stringify(credentials));
    return credentials;
  })();
  return demo;
}

function toClient(row: ClientRow): Client {
  return {
    clientId: row.client_id,
    name: row.name,
    apiKey: row.api_key,
    apiSecretHash: row.api_secret_hash,
    hmacKey: row.hmac_key,
    requireSignature: row.require_signature === 1,
    requireApiKey: row.require_api_key === 1,
  };
}
