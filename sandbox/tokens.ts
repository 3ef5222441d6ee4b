import type { SandboxDb } from './db';
import { sql } from './db';
import { digest, newCredential } from './secrets';

export interface IssuedToken {
  accessToken: string;
  expiresInSeconds: number;
}

export type TokenCheck =
  { status: 'valid'; clientId: string } | { status: 'expired' } | { status: 'unknown' };

export function issueToken(
  db: SandboxDb,
  clientId: string,
  lifetimeSeconds: number,
  now = Date.now(),
): IssuedToken {
  const accessToken = newCredential('at');
  sql(db, 'INSERT INTO tokens (token_hash, client_id, expires_at) VALUES (?, ?, ?)').run(
    digest(accessToken),
    clientId,
    now + lifetimeSeconds * 1000,
  );
  return { accessToken, expiresInSeconds: lifetimeSeconds };
}

export function checkToken(db: SandboxDb, accessToken: string, now = Date.now()): TokenCheck {
  const row = sql(db, 'SELECT client_id, expires_at FROM tokens WHERE token_hash = ?').get(
    digest(accessToken),
  ) as { client_id: string; expires_at: number } | undefined;
  if (!row) return { status: 'unknown' };
  if (row.expires_at <= now) return { status: 'expired' };
  return { status: 'valid', clientId: row.client_id };
}

// Expired tokens are kept for a day so a late caller is told "expired" rather than "unknown".
export function purgeExpiredTokens(db: SandboxDb, now = Date.now()): void {
  sql(db, 'DELETE FROM tokens WHERE expires_at < ?').run(now - 24 * 3600 * 1000);
}
