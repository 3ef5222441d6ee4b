import { randomUUID } from 'node:crypto';
import type { CertificationRequest } from '../protocol/certification-request';
import type { SandboxDb } from './db';
import { sql } from './db';

export type SandboxState = 'pending' | 'anchored' | 'failed';

interface CertificationRow {
  seq: number;
  id: string;
  client_id: string;
  request_id: string;
  asset_hash: string;
  asset_type: string;
  source_system: string;
  event_type: string;
  state: SandboxState;
  failure_code: string | null;
  failure_message: string | null;
  created_at: number;
  updated_at: number;
  anchored_at: number | null;
  leaf_index: number | null;
  leaf_input: string | null;
  leaf_hash: string | null;
  tree_size: number | null;
  inclusion_proof: string | null;
  sth_timestamp: number | null;
  sth_root_hash: string | null;
  sth_signature: string | null;
}

export interface LogIdentity {
  keyId: string;
}

export function insertCertification(
  db: SandboxDb,
  clientId: string,
  requestId: string,
  input: CertificationRequest,
  now = Date.now(),
): string {
  const id = `cert_${randomUUID()}`;
  sql(
    db,
    `INSERT INTO certifications (id, client_id, request_id, asset_hash, asset_type, source_system, event_type, state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
  ).run(
    id,
    clientId,
    requestId,
    input.asset_hash,
    input.asset_type,
    input.source_system,
    input.event_type,
    now,
    now,
  );
  return id;
}

const SELECT_WITH_TREE_HEAD = `
  SELECT c.*, h.timestamp AS sth_timestamp, h.root_hash AS sth_root_hash, h.signature AS sth_signature
  FROM certifications c LEFT JOIN tree_heads h ON h.tree_size = c.tree_size`;

/** The record as its owner sees it; another client's id reads as absent, so existence never leaks. */
export function readCertification(
  db: SandboxDb,
  clientId: string,
  id: string,
  log: LogIdentity,
): Record<string, unknown> | undefined {
  const row = sql(db, `${SELECT_WITH_TREE_HEAD} WHERE c.id = ? AND c.client_id = ?`).get(id, clientId) as
    CertificationRow | undefined;
  return row && toResource(row, log);
}

export function countByState(db: SandboxDb): Record<SandboxState, number> {
  const counts: Record<SandboxState, number> = { pending: 0, anchored: 0, failed: 0 };
  for (const row of sql(db, 'SELECT state, COUNT(*) AS n FROM certifications GROUP BY state').all() as {
    state: SandboxState;
    n: number;
  }[]) {
    counts[row.state] = row.n;
  }
  return counts;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toResource(row: CertificationRow, log: LogIdentity): Record<string, unknown> {
  return {
    id: row.id,
    object: 'certification',
    state: row.state,
    asset_hash: row.asset_hash,
    asset_type: row.asset_type,
    source_system: row.source_system,
    event_type: row.event_type,
    request_id: row.request_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    anchored_at: iso(row.anchored_at),
    failure: row.failure_code ? { code: row.failure_code, message: row.failure_message } : null,
    evidence: row.state === 'anchored' ? toEvidence(row, log) : null,
  };
}

function toEvidence(row: CertificationRow, log: LogIdentity): Record<string, unknown> {
  return {
    format: 'rfc6962-merkle-inclusion/v1',
    log_key_id: log.keyId,
    leaf_input: row.leaf_input,
    leaf_hash: row.leaf_hash,
    leaf_index: row.leaf_index,
    tree_size: row.tree_size,
    inclusion_proof: JSON.parse(row.inclusion_proof ?? '[]') as string[],
    root_hash: row.sth_root_hash,
    signed_tree_head: {
      tree_size: row.tree_size,
      timestamp: row.sth_timestamp,
      root_hash: row.sth_root_hash,
      signature: row.sth_signature,
      signature_algorithm: 'Ed25519',
      key_id: log.keyId,
    },
    anchored_at: iso(row.anchored_at),
  };
}
