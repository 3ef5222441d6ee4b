import type { SandboxDb } from './db';
import { sql } from './db';

/** How long an X-Request-Id is remembered per client (docs/api.md, "Idempotency"). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in_flight' }
  | { kind: 'different_body' };

interface IdempotencyRow {
  body_hash: string;
  in_flight: number;
  response_status: number | null;
  response_body: string | null;
  created_at: number;
}

/** Reserves a request id for one body, or says why the request must not run again. */
export function claimRequestId(
  db: SandboxDb,
  clientId: string,
  requestId: string,
  bodyHash: string,
  now = Date.now(),
): Claim {
  return db.transaction((): Claim => {
    const row = sql(db, 'SELECT * FROM idempotency WHERE client_id = ? AND request_id = ?').get(
      clientId,
      requestId,
    ) as IdempotencyRow | undefined;
    if (row && row.created_at > now - IDEMPOTENCY_WINDOW_MS) {
      if (row.body_hash !== bodyHash) return { kind: 'different_body' };
      if (row.in_flight === 1) return { kind: 'in_flight' };
      return { kind: 'replay', status: row.response_status as number, body: row.response_body as string };
    }
    sql(
      db,
      `INSERT INTO idempotency (client_id, request_id, body_hash, in_flight, created_at) VALUES (?, ?, ?, 1, ?)
       ON CONFLICT(client_id, request_id) DO UPDATE SET body_hash = excluded.body_hash, in_flight = 1,
       response_status = NULL, response_body = NULL, created_at = excluded.created_at`,
    ).run(clientId, requestId, bodyHash, now);
    return { kind: 'claimed' };
  })();
}

/** Stores the response to replay; call inside the transaction that made the change it describes. */
export function completeRequestId(
  db: SandboxDb,
  clientId: string,
  requestId: string,
  status: number,
  body: string,
): void {
  sql(
    db,
    'UPDATE idempotency SET in_flight = 0, response_status = ?, response_body = ? WHERE client_id = ? AND request_id = ?',
  ).run(status, body, clientId, requestId);
}

/** Frees a claim whose request failed before changing anything, so a retry may run. */
export function releaseRequestId(db: SandboxDb, clientId: string, requestId: string): void {
  sql(db, 'DELETE FROM idempotency WHERE client_id = ? AND request_id = ? AND in_flight = 1').run(
    clientId,
    requestId,
  );
}

/**
 * At start-up, claims left in flight belong to requests that died with the previous process:
 * they changed nothing (creation and completion share a transaction), so they are freed.
 */
export function releaseAbandonedClaims(db: SandboxDb, now = Date.now()): void {
  sql(db, 'DELETE FROM idempotency WHERE in_flight = 1 OR created_at <= ?').run(now - IDEMPOTENCY_WINDOW_MS);
}
