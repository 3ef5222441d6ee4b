import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { base64ToBytes, bytesToHex } from '../../verifier/bytes';
import type { TreeHash } from '../../verifier/evidence-record/hash-tree';
import { hashTree } from '../../verifier/evidence-record/hash-tree';
import { certificateNotAfter } from '../../verifier/der';
import type { QueueDb } from './database';
import { statementCache } from './statements';
import type { RecordChains } from './record-chains';

/*
 * Evidence records renew themselves (RFC 4998 §5.2, timestamp renewal): before the newest archive
 * timestamp of a record weakens, one request covers the newest tokens of every record due, as a
 * hash tree like a batch's. The request is a row of timestamp_batches (kind 'renewal'), asked by the
 * same engine at the authority's pace, offline or not; archive_stamps say which records it extends.
 * Opening a renewal is one transaction: a record is never half renewed, and a record whose renewal
 * waits is not renewed twice.
 */

/** A token's certificates are about to stop being valid: renewal is due this long before (default 90 days). */
export const DEFAULT_RENEWAL_MARGIN_MS = 90 * 24 * 3_600_000;
/** A token whose validation data is still being collected is renewed without it only this close to expiry. */
const WAIT_FOR_VALIDATION_UNTIL_MS = 7 * 24 * 3_600_000;
const HASHES = { sha256, sha512 } as const;

/** One record (a batch's documents share it) whose newest archive timestamp is due for renewal. */
export interface DueRecord {
  /** The batch whose documents' records these are. */
  batchId: number;
  profileId: string;
  documents: number;
  /** The newest archive timestamp: the batch's own token or its last renewal's. */
  newestId: number;
  newestGenTime: number;
  newestAuthority: string;
  /** When the newest archive timestamp's certificates stop being valid. */
  holdsUntil: number;
  /** The hash of the record's chain: a renewal of it uses the same (RFC 4998 §5.1). */
  hash: TreeHash;
  /**
   * Its certificates end within the margin; or it rests on what is retired (`weakness`); or so does
   * its last renewal, and renewing it needs an authority that signs with something stronger.
   */
  why: 'expires' | 'retired' | 'retiredAgain';
  /** What the newest timestamp rests on that is retired: a hash ("SHA-1"), or a key too small. */
  weakness?: Weakness;
}

export type Weakness = { digest: string } | { key: 'RSA' | 'EC'; bits: number };

/** A record that may fall due: its newest timestamp, to be judged by its time and strength. */
export interface RecordCandidate extends Omit<DueRecord, 'why' | 'weakness'> {
  /** The newest timestamp's token and chain (base64 DER), and where it was asked. */
  newestToken: string;
  newestChain: string[];
  newestTsaUrl: string;
  newestIsRenewal: boolean;
}

/** A renewal request as it stands. */
export interface RenewalState {
  id: number;
  state: 'waiting' | 'confirmed';
  records: number;
  documents: number;
  /** Why it waits (stored words), while it does. */
  problem: string | null;
  attempts: number;
  authority: string | null;
  genTime: number | null;
}

interface NewestRow extends Omit<DueRecord, 'holdsUntil' | 'why' | 'weakness'> {
  holdsUntil: number | null;
  newestToken: string;
  newestChain: string;
  newestTsaUrl: string;
  newestIsRenewal: number;
  validationDueAt: number | null;
  /** A renewal of it waits for its authority. */
  renewing: boolean;
}

export class RecordRenewals {
  private readonly sql;

  constructor(
    private readonly db: QueueDb,
    private readonly chains: RecordChains,
  ) {
    this.sql = statementCache(db);
  }

  /** Every record on the desk, with its newest confirmed archive timestamp and whether a renewal of it waits. */
  private newest(): NewestRow[] {
    this.fillHoldsUntil();
    return (
      this.sql(
        // A record's chain starts at a batch, or at a hash-tree renewal for the documents it took on
        // (they leave the chain they were in: documents counts those it still holds).
        `WITH newest AS (
           SELECT b.id AS batchId, b.profile_id AS profileId, b.hash,
             b.size - (SELECT COUNT(*) FROM chain_stamps cs JOIN timestamp_batches r ON r.id = cs.renewal_id
                       WHERE cs.from_id = b.id AND r.state = 'confirmed') AS documents,
             COALESCE((SELECT s.renewal_id FROM archive_stamps s JOIN timestamp_batches r ON r.id = s.renewal_id
                       WHERE s.batch_id = b.id AND r.state = 'confirmed' ORDER BY s.seq DESC LIMIT 1), b.id) AS newestId,
             EXISTS (SELECT 1 FROM archive_stamps s JOIN timestamp_batches r ON r.id = s.renewal_id
                     WHERE s.batch_id = b.id AND r.state = 'waiting') AS renewing
           FROM timestamp_batches b
           WHERE (b.kind = 'batch' AND b.tree = 'rfc4998' OR b.new_chain = 1) AND b.state = 'confirmed')
         SELECT n.batchId, n.profileId, n.hash, n.documents, n.newestId, n.renewing, t.gen_time AS newestGenTime,
           t.token AS newestToken, t.chain AS newestChain, t.tsa_url AS newestTsaUrl, t.kind = 'renewal' AS newestIsRenewal,
           t.authority AS newestAuthority, t.holds_until AS holdsUntil, t.validation_due_at AS validationDueAt
         FROM newest n JOIN timestamp_batches t ON t.id = n.newestId
         WHERE n.documents > 0
         ORDER BY t.holds_until, n.batchId`,
      ).all() as (Omit<NewestRow, 'renewing'> & { renewing: number })[]
    ).map((row) => ({ ...row, renewing: row.renewing === 1 }));
  }

  /** Records that may be renewed now: not past their end, not being renewed; soonest end first. */
  candidates(now: number): RecordCandidate[] {
    return this.newest()
      .filter((row) => !row.renewing && (row.holdsUntil as number) > now)
      .map(({ validationDueAt: _collecting, renewing: _renewing, ...row }) => ({
        ...row,
        holdsUntil: row.holdsUntil as number,
        newestChain: JSON.parse(row.newestChain) as string[],
        newestIsRenewal: row.newestIsRenewal === 1,
      }));
  }

  /**
   * Records whose newest archive timestamp is within `marginMs` of its certificates' end, soonest
   * first. Not those past it: a renewal then would come too late to carry them (they need attention).
   */
  due(now: number, marginMs = DEFAULT_RENEWAL_MARGIN_MS): DueRecord[] {
    return this.candidates(now)
      .filter((row) => row.holdsUntil - marginMs <= now)
      .map((row) => dueRecordOf(row, 'expires'));
  }

  /**
   * Opens one renewal over `records` (all of one profile and hash, asked of `tsaUrl`): each record's newest
   * token is frozen with its validation data inside, and the renewal's tree is over those tokens.
   * Records whose validation data is still being collected wait for it, unless close to expiry (by
   * `clock`, the time renewal reads; `now` is the request's, like any batch's). Returns the
   * renewal's id, or null when none was opened.
   */
  open(
    profileId: string,
    tsaUrl: string,
    records: readonly DueRecord[],
    clock: number,
    now = Date.now(),
  ): number | null {
    return this.db.transaction(() => {
      const ready = this.newest().filter(
        (row) =>
          !row.renewing &&
          records.some((record) => record.batchId === row.batchId && record.newestId === row.newestId) &&
          row.profileId === profileId &&
          row.hash === records[0]?.hash &&
          (row.validationDueAt === null || (row.holdsUntil as number) - clock < WAIT_FOR_VALIDATION_UNTIL_MS),
      );
      if (ready.length === 0) return null;
      const covered = new Map<number, Uint8Array>();
      for (const row of ready)
        if (!covered.has(row.newestId)) covered.set(row.newestId, this.chains.freeze(row.newestId));
      const hash = (ready[0] as NewestRow).hash;
      const leafOf = (row: NewestRow) => HASHES[hash](covered.get(row.newestId) as Uint8Array);
      const tree = hashTree(ready.map(leafOf), hash);
      const { lastInsertRowid } = this.sql(
        `INSERT INTO timestamp_batches (profile_id, tsa_url, root, tree, hash, kind, size, state, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, 'rfc4998', ?, 'renewal', ?, 'waiting', ?, ?, ?)`,
      ).run(profileId, tsaUrl, bytesToHex(tree.root), hash, ready.length, now, now, now);
      const renewalId = Number(lastInsertRowid);
      const add = this.sql(
        `INSERT INTO archive_stamps (batch_id, seq, renewal_id, reduced)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM archive_stamps WHERE batch_id = ?), ?, ?)`,
      );
      for (const row of ready) {
        const reduced = tree.reduced(leafOf(row)).map((list) => list.map(bytesToHex));
        add.run(row.batchId, row.batchId, renewalId, JSON.stringify(reduced));
      }
      return renewalId;
    })();
  }

  /** Every record here (a batch timestamped over an RFC 4998 tree), and its documents. */
  all(): { records: number; documents: number } {
    return this.sql(
      `SELECT COUNT(*) AS records, COALESCE(SUM(size), 0) AS documents FROM timestamp_batches
       WHERE kind = 'batch' AND tree = 'rfc4998' AND state = 'confirmed'`,
    ).get() as { records: number; documents: number };
  }

  /**
   * When the earliest record stops holding unless renewed (and so is next due, `marginMs` before),
   * and the records whose newest archive timestamp's certificates ended before `now`, not renewed since.
   */
  outlook(
    now: number,
    marginMs: number,
  ): {
    holdsUntil: number | null;
    nextDueAt: number | null;
    expired: { records: number; documents: number };
  } {
    const rows = this.newest();
    const past = rows.filter((row) => (row.holdsUntil as number) <= now);
    const holdsUntil = rows[0]?.holdsUntil ?? null;
    return {
      holdsUntil,
      nextDueAt: holdsUntil === null ? null : holdsUntil - marginMs,
      expired: { records: past.length, documents: past.reduce((sum, row) => sum + row.documents, 0) },
    };
  }

  /** Where renewals stand: confirmed (by whom, when), or waiting and why. */
  states(ids: readonly number[]): RenewalState[] {
    const get = this.sql(
      `SELECT id, state, size AS records, problem, attempts, authority, gen_time AS genTime,
       CASE WHEN new_chain = 1 THEN size ELSE
       (SELECT COALESCE(SUM(b.size), 0) FROM archive_stamps s JOIN timestamp_batches b ON b.id = s.batch_id
        WHERE s.renewal_id = t.id) END AS documents
       FROM timestamp_batches t WHERE id = ?`,
    );
    return ids.map((id) => get.get(id) as RenewalState);
  }

  /** Renewals waiting for their authority, and how many records each extends. */
  waiting(): RenewalState[] {
    const ids = this.sql(
      `SELECT id FROM timestamp_batches WHERE kind = 'renewal' AND state = 'waiting' ORDER BY id`,
    )
      .pluck()
      .all() as number[];
    return this.states(ids);
  }

  /** The newest confirmed renewal (ms since the epoch and authority), or null. */
  lastRenewal(): { genTime: number; authority: string; records: number } | null {
    return (
      (this.sql(
        `SELECT gen_time AS genTime, authority, size AS records FROM timestamp_batches
         WHERE kind = 'renewal' AND state = 'confirmed' ORDER BY gen_time DESC LIMIT 1`,
      ).get() as { genTime: number; authority: string; records: number } | undefined) ?? null
    );
  }

  /** Tokens kept before their certificates' end was recorded get it once, from their chain. */
  private fillHoldsUntil(): void {
    const rows = this.sql(
      `SELECT id, chain FROM timestamp_batches WHERE state = 'confirmed' AND tree = 'rfc4998' AND holds_until IS NULL`,
    ).all() as { id: number; chain: string }[];
    const set = this.sql('UPDATE timestamp_batches SET holds_until = ? WHERE id = ?');
    for (const row of rows) set.run(chainValidUntil(JSON.parse(row.chain) as string[]), row.id);
  }
}

/** A candidate as a record due, and why. */
export function dueRecordOf(
  candidate: RecordCandidate,
  why: DueRecord['why'],
  weakness?: Weakness,
): DueRecord {
  const { batchId, profileId, documents, newestId, newestGenTime, newestAuthority, holdsUntil, hash } =
    candidate;
  return {
    batchId,
    hash,
    profileId,
    documents,
    newestId,
    newestGenTime,
    newestAuthority,
    holdsUntil,
    why,
    ...(weakness ? { weakness } : {}),
  };
}

/** When the first certificate of a chain (base64 DER) stops being valid, ms since the epoch. */
function chainValidUntil(chain: readonly string[]): number {
  return Math.min(...chain.map((der) => certificateNotAfter(base64ToBytes(der))));
}
