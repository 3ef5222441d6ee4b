import { base64ToBytes, bytesToHex, hexToBytes } from '../../verifier/bytes';
import { certificateFingerprint } from '../../verifier/timestamp/certificate-bytes';
import type { TreeHash } from '../../verifier/evidence-record/hash-tree';
import { hashTree } from '../../verifier/evidence-record/hash-tree';
import type { ChangeFeed } from './change-feed';
import type { QueueDb } from './database';
import { statementCache } from './statements';
import type { Said } from '../../protocol/said';
import { storedSaid } from '../../protocol/said';

/** A batch's request to a timestamping authority, as the engine works on it. */
export interface TimestampBatch {
  id: number;
  profileId: string;
  tsaUrl: string;
  /**
   * Hex: the root over the batch's SHA-256s. An RFC 4998 tree's root is the token's imprint itself;
   * an RFC 6962 tree's (batches made before evidence records) is hashed once more.
   */
  root: string;
  tree: BatchTree;
  /** The hash its tree and imprint use: SHA-512 for a hash-tree renewal (RFC 4998 §5.2). */
  hash: TreeHash;
  size: number;
  attempts: number;
}

/** How a batch's SHA-256s were put under one root. */
export type BatchTree = 'rfc6962' | 'rfc4998';

/** What a receipt needs of a confirmed batch. */
export interface ConfirmedTimestamp {
  /** The batch's id. */
  id: number;
  tsaUrl: string;
  root: string;
  tree: BatchTree;
  token: string;
  authority: string;
  genTime: number;
  chain: string[];
  /** The chain's OCSP responses and CRLs, DER base64; null until collected. */
  validation: KeptValidation | null;
}

export interface KeptValidation {
  ocsp: string[];
  crl: string[];
}

/** A kept token whose validation data is still to be collected. */
export interface UnvalidatedBatch {
  id: number;
  profileId: string;
  genTime: number;
  chain: string[];
  attempts: number;
}

/**
 * Independent time, kept like certifications: a batch's rows get one Merkle root and their paths
 * to it in the same transaction, and the request to the authority waits in the table until it is
 * answered with a token that holds, however many restarts and failures lie in between.
 */
export class TimestampBatches {
  private readonly sql;

  constructor(
    private readonly db: QueueDb,
    private readonly feed: ChangeFeed,
  ) {
    this.sql = statementCache(db);
  }

  /**
   * Puts every row of a profile that has no timestamp yet (and was made before `before`) under a new
   * root: one request for a whole drop. Returns the batch id, or null when nothing waited.
   */
  open(profileId: string, tsaUrl: string, before: number, now = Date.now()): number | null {
    return this.db.transaction(() => {
      const rows = this.sql(
        `SELECT id, asset_hash AS assetHash, state FROM certifications
         WHERE profile_id = ? AND timestamp_batch_id IS NULL AND created_at <= ? ORDER BY id`,
      ).all(profileId, before) as { id: number; assetHash: string; state: string }[];
      if (rows.length === 0) return null;
      const tree = hashTree(rows.map((row) => hexToBytes(row.assetHash)));
      const { lastInsertRowid } = this.sql(
        `INSERT INTO timestamp_batches (profile_id, tsa_url, root, tree, size, state, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, 'rfc4998', ?, 'waiting', ?, ?, ?)`,
      ).run(profileId, tsaUrl, bytesToHex(tree.root), rows.length, now, now, now);
      const batchId = Number(lastInsertRowid);
      const mark = this.sql(
        'UPDATE certifications SET timestamp_batch_id = ?, timestamp_path = ? WHERE id = ?',
      );
      // Each row's reduced tree (lists of hex hashes), the way from its SHA-256 to the root.
      for (const row of rows) {
        const reduced = tree.reduced(hexToBytes(row.assetHash)).map((list) => list.map(bytesToHex));
        mark.run(batchId, JSON.stringify(reduced), row.id);
      }
      this.announce(batchId);
      return batchId;
    })();
  }

  /**
   * Requests due now, oldest first: enough of them that a new batch is asked in the same round as
   * the retries ahead of it (they are asked one at a time per authority anyway).
   */
  due(now: number, limit = 64): TimestampBatch[] {
    return this.sql(
      `SELECT id, profile_id AS profileId, tsa_url AS tsaUrl, root, tree, hash, size, attempts FROM timestamp_batches
       WHERE state = 'waiting' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
    ).all(now, limit) as TimestampBatch[];
  }

  /** When the next waiting request becomes due, if any. */
  nextDueAt(): number | null {
    return (
      (this.sql(
        `SELECT MIN(at) FROM (SELECT MIN(next_attempt_at) AS at FROM timestamp_batches WHERE state = 'waiting'
         UNION ALL SELECT MIN(validation_due_at) FROM timestamp_batches WHERE validation_due_at IS NOT NULL)`,
      )
        .pluck()
        .get() as number | null) ?? null
    );
  }

  /** The token holds: kept, and its validation data is due at once. */
  confirm(
    id: number,
    token: Omit<ConfirmedTimestamp, 'id' | 'tsaUrl' | 'root' | 'tree' | 'validation'>,
    now = Date.now(),
  ): void {
    this.sql(
      `UPDATE timestamp_batches SET state = 'confirmed', token = ?, authority = ?, gen_time = ?, chain = ?,
       problem = NULL, attempts = attempts + 1, validation_due_at = ?, updated_at = ?
       WHERE id = ? AND state = 'waiting'`,
    ).run(token.token, token.authority, token.genTime, JSON.stringify(token.chain), now, now, id);
    this.announce(id);
  }

  /** Kept tokens whose validation data is due now, oldest first. */
  validationDue(now: number, limit = 8): UnvalidatedBatch[] {
    return (
      this.sql(
        `SELECT id, profile_id AS profileId, gen_time AS genTime, chain, validation_attempts AS attempts
         FROM timestamp_batches WHERE validation_due_at IS NOT NULL AND validation_due_at <= ?
         ORDER BY validation_due_at, id LIMIT ?`,
      ).all(now, limit) as (Omit<UnvalidatedBatch, 'chain'> & { chain: string })[]
    ).map((batch) => ({ ...batch, chain: JSON.parse(batch.chain) as string[] }));
  }

  /**
   * The validation data is collected: kept, and nothing more is due. `problem` when it shows the
   * authority revoked at the token's time (kept all the same: it is the proof of that).
   */
  keepValidation(id: number, data: KeptValidation, problem: Said | null, now = Date.now()): void {
    this.sql(
      `UPDATE timestamp_batches SET validation = ?, validation_problem = ?, validation_due_at = NULL,
       validation_attempts = validation_attempts + 1, updated_at = ? WHERE id = ?`,
    ).run(JSON.stringify(data), storedSaid(problem), now, id);
    this.announce(id);
  }

  /** Collecting failed: said in words, and tried again at `retryAt`. */
  validationNotYet(id: number, problem: Said, retryAt: number, now = Date.now()): void {
    this.sql(
      `UPDATE timestamp_batches SET validation_problem = ?, validation_due_at = ?,
       validation_attempts = validation_attempts + 1, updated_at = ? WHERE id = ?`,
    ).run(storedSaid(problem), retryAt, now, id);
    this.announce(id);
  }

  /** An attempt failed: keep the request, say why in words, and try again at `retryAt`. */
  defer(id: number, problem: Said, retryAt: number, now = Date.now()): void {
    this.sql(
      `UPDATE timestamp_batches SET problem = ?, attempts = attempts + 1, next_attempt_at = ?, updated_at = ?
       WHERE id = ? AND state = 'waiting'`,
    ).run(storedSaid(problem), retryAt, now, id);
    this.announce(id);
  }

  /** Not asked now, for the authority's pace: asked at `at` instead, with the last reason kept. */
  postpone(id: number, at: number, now = Date.now()): void {
    this.sql(
      `UPDATE timestamp_batches SET next_attempt_at = ?, updated_at = ? WHERE id = ? AND state = 'waiting'`,
    ).run(at, now, id);
    this.announce(id);
  }

  /** The confirmed timestamp a row's receipt carries, or null. */
  confirmedFor(rowId: number): ConfirmedTimestamp | null {
    const found = this.sql(
      `SELECT t.id, t.tsa_url AS tsaUrl, t.root, t.tree, t.token, t.authority, t.gen_time AS genTime, t.chain, t.validation
       FROM certifications c JOIN timestamp_batches t ON t.id = c.timestamp_batch_id
       WHERE c.id = ? AND t.state = 'confirmed'`,
    ).get(rowId) as
      | (Omit<ConfirmedTimestamp, 'chain' | 'validation'> & { chain: string; validation: string | null })
      | undefined;
    return found
      ? {
          ...found,
          chain: JSON.parse(found.chain) as string[],
          validation: found.validation === null ? null : (JSON.parse(found.validation) as KeptValidation),
        }
      : null;
  }

  /**
   * The roots this computer's authorities' tokens were checked against when they were kept: trusted
   * here for checking receipts, as a pinned log key is.
   */
  trustedRoots(): string[] {
    const chains = this.sql(`SELECT DISTINCT chain FROM timestamp_batches WHERE state = 'confirmed'`)
      .pluck()
      .all() as string[];
    const roots = chains
      .map((chain) => (JSON.parse(chain) as string[]).at(-1))
      .filter((root) => root !== undefined);
    return [...new Set(roots.map((root) => certificateFingerprint(base64ToBytes(root))))];
  }

  /** The rows of a batch (or of the records a renewal extends) changed how they read ("time confirmed by …", or why not yet). */
  private announce(batchId: number): void {
    const rows = this.sql(
      `SELECT id, state FROM certifications WHERE timestamp_batch_id = ?
       UNION ALL SELECT c.id, c.state FROM archive_stamps s
       JOIN certifications c ON c.timestamp_batch_id = s.batch_id WHERE s.renewal_id = ?`,
    ).all(batchId, batchId) as {
      id: number;
      state: Parameters<ChangeFeed['noteChanged']>[1];
    }[];
    for (const row of rows) this.feed.noteChanged(row.id, row.state);
  }
}
