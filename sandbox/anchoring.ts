import type { SandboxDb } from './db';
import { sql } from './db';
import type { LogKey } from './log-key';
import { treeHeadSignatureInput } from './log-key';
import { MerkleLog, leafHash } from './merkle';
import { logNodesIn } from './log-nodes';
import { SANDBOX_LEAF_ENVIRONMENT } from '../protocol/receipt';

export interface AnchoringPolicy {
  /** A certification waits at least this long after creation before a batch takes it. */
  anchorDelayMs: number;
  /** Share (0..1) of certifications a batch fails instead of anchoring: a fault for tests. */
  anchorFailureRate: number;
  maxBatchSize: number;
}

export interface BatchResult {
  anchored: number;
  failed: number;
  treeSize: number;
}

interface PendingRow {
  seq: number;
  id: string;
  asset_hash: string;
  asset_type: string;
  source_system: string;
  event_type: string;
  created_at: number;
}

/**
 * Anchors every due pending certification in one batch: each becomes the next leaf of the
 * append-only log, the batch ends in one signed tree head, and each leaf's inclusion proof
 * against that head is stored with it. One transaction, so a crash leaves no half batch.
 */
export function anchorDueBatch(
  db: SandboxDb,
  key: LogKey,
  policy: AnchoringPolicy,
  now = Date.now(),
): BatchResult {
  return db.transaction((): BatchResult => {
    const due = sql(
      db,
      `SELECT * FROM certifications WHERE state = 'pending' AND created_at <= ? ORDER BY seq LIMIT ?`,
    ).all(now - policy.anchorDelayMs, policy.maxBatchSize) as PendingRow[];
    const treeSize = currentTreeSize(db);
    if (due.length === 0) return { anchored: 0, failed: 0, treeSize };

    const failing = due.filter(() => Math.random() < policy.anchorFailureRate);
    const anchoring = due.filter((row) => !failing.includes(row));
    const markFailed = sql(
      db,
      `UPDATE certifications SET state = 'failed', failure_code = 'anchoring_failed',
       failure_message = 'The sandbox was told to fail anchoring this certification (fault injection).', updated_at = ?
       WHERE seq = ?`,
    );
    for (const row of failing) markFailed.run(now, row.seq);
    if (anchoring.length === 0) return { anchored: 0, failed: failing.length, treeSize };

    const newLeaves = anchoring.map((row, offset) => {
      const input = leafInput(row);
      return { row, index: treeSize + offset, input, hash: leafHash(Buffer.from(input, 'utf8')) };
    });
    const newSize = treeSize + newLeaves.length;
    const log = new MerkleLog(logNodesIn(db));
    log.append(
      treeSize,
      newLeaves.map((leaf) => leaf.hash),
    );
    const rootHash = log.rootHash(newSize);
    const signature = key.sign(treeHeadSignatureInput(now, newSize, rootHash));
    sql(db, 'INSERT INTO tree_heads (tree_size, timestamp, root_hash, signature) VALUES (?, ?, ?, ?)').run(
      newSize,
      now,
      rootHash.toString('hex'),
      signature.toString('base64'),
    );
    const markAnchored = sql(
      db,
      `UPDATE certifications SET state = 'anchored', anchored_at = ?, updated_at = ?, leaf_index = ?, leaf_input = ?,
       leaf_hash = ?, tree_size = ?, inclusion_proof = ? WHERE seq = ?`,
    );
    for (const leaf of newLeaves) {
      const proof = log.inclusionProof(leaf.index, newSize).map((node) => node.toString('hex'));
      markAnchored.run(
        now,
        now,
        leaf.index,
        leaf.input,
        leaf.hash.toString('hex'),
        newSize,
        JSON.stringify(proof),
        leaf.row.seq,
      );
    }
    return { anchored: anchoring.length, failed: failing.length, treeSize: newSize };
  })();
}

export function currentTreeSize(db: SandboxDb): number {
  return (sql(db, 'SELECT COALESCE(MAX(tree_size), 0) FROM tree_heads').pluck().get() as number) ?? 0;
}

export function latestTreeHead(
  db: SandboxDb,
): { tree_size: number; timestamp: number; root_hash: string; signature: string } | undefined {
  return sql(db, 'SELECT * FROM tree_heads ORDER BY tree_size DESC LIMIT 1').get() as
    { tree_size: number; timestamp: number; root_hash: string; signature: string } | undefined;
}

/**
 * What a leaf commits to: the certification's identity and content, as compact JSON with a
 * fixed key order, so anyone holding the evidence can re-hash it and read the asset hash back.
 */
function leafInput(row: PendingRow): string {
  return JSON.stringify({
    v: 1,
    certification_id: row.id,
    asset_hash: row.asset_hash,
    asset_type: row.asset_type,
    source_system: row.source_system,
    event_type: row.event_type,
    certified_at: new Date(row.created_at).toISOString(),
    // Signed, so no edited receipt can pass a sandbox's certification off as a real one.
    environment: SANDBOX_LEAF_ENVIRONMENT,
  });
}
