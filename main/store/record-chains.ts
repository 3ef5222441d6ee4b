import { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes } from '../../verifier/bytes';
import type { TreeHash } from '../../verifier/evidence-record/hash-tree';
import { withValidationData } from '../../verifier/evidence-record/token-validation';
import type { QueueDb } from './database';
import { statementCache } from './statements';
import type { KeptValidation } from './timestamp-batches';

/*
 * A document's evidence record as stored: the chain its batch started (or, for a receipt made
 * before records, its receipt record), each renewal since, and the chains hash-tree renewals
 * started for it; each token as records carry it, frozen once something covers it.
 */

/** How long a batch's record parts are kept for its next rows (a renewal within it shows a second later). */
const PARTS_KEPT_MS = 1_000;

/** A record's archive timestamps after its first (the batch's own token), oldest first. */
export interface RenewalStamp {
  /** The renewal's token as records carry it (covered by the next renewal once there is one). */
  token: Uint8Array;
  reduced: Uint8Array[][];
  genTime: number;
  authority: string;
}

/** A chain that a hash-tree renewal started: its first archive timestamp, and the renewals of it. */
export interface LaterChain {
  first: RenewalStamp;
  renewals: RenewalStamp[];
}

/** What a document's record is made of: its batch's token, each renewal since, and later chains. */
export interface RecordParts {
  first: Uint8Array;
  renewals: readonly RenewalStamp[];
  later?: readonly LaterChain[];
}

/** A record's archive timestamps, chain by chain, its first with the document's reduced tree. */
export const stampsOfRecord = (
  parts: RecordParts,
  reduced: Uint8Array[][],
): { token: Uint8Array; reduced: Uint8Array[][] }[][] => [
  [{ token: parts.first, reduced }, ...parts.renewals],
  ...(parts.later ?? []).map((chain) => [chain.first, ...chain.renewals]),
];

/** An archive timestamp as stored, without its token: the row that holds it, its place and way to its root. */
interface StampRow {
  id: number;
  seq: number;
  reduced: string;
  genTime: number;
  authority: string;
}

/** A hash-tree renewal that took a document on, and the last renewal of the chain before that it covers. */
type ChainLink = Omit<StampRow, 'seq'> & { priorSeq: number };

/** A chain of a document's record as stored: the row that starts it, and the renewals of it it keeps. */
interface ChainRef {
  first: Omit<StampRow, 'seq'>;
  renewals: StampRow[];
}

interface TokenRow {
  token: string;
  chain: string;
  validation: string | null;
  coveredToken: string | null;
}

export class RecordChains {
  private readonly sql;
  private readonly recentParts = new Map<number, { at: number; parts: RecordParts }>();

  constructor(db: QueueDb) {
    this.sql = statementCache(db);
  }

  /**
   * A request that starts new chains (a hash-tree renewal, or records over old receipts): a
   * renewal row, waiting like any request, over a tree of `size` data objects. Returns its id.
   */
  openChainStart(
    profileId: string,
    tsaUrl: string,
    root: Uint8Array,
    hash: TreeHash,
    size: number,
    now: number,
  ): number {
    const { lastInsertRowid } = this.sql(
      `INSERT INTO timestamp_batches (profile_id, tsa_url, root, tree, hash, new_chain, kind, size, state, next_attempt_at, created_at, updated_at)
       VALUES (?, ?, ?, 'rfc4998', ?, 1, 'renewal', ?, 'waiting', ?, ?, ?)`,
    ).run(profileId, tsaUrl, bytesToHex(root), hash, size, now, now, now);
    return Number(lastInsertRowid);
  }

  /**
   * The token of a batch or renewal as records carry it: frozen once a renewal covers it (the bytes
   * that renewal hashed), else with the chain and validation data kept now.
   */
  coveredToken(id: number): Uint8Array {
    const row = this.sql(
      'SELECT token, chain, validation, covered_token AS coveredToken FROM timestamp_batches WHERE id = ?',
    ).get(id) as TokenRow;
    return row.coveredToken === null ? withKeptData(row) : base64ToBytes(row.coveredToken);
  }

  /** The token with its validation data inside, kept as the bytes a renewal covers (once). */
  freeze(id: number): Uint8Array {
    const token = this.coveredToken(id);
    this.sql('UPDATE timestamp_batches SET covered_token = ? WHERE id = ? AND covered_token IS NULL').run(
      bytesToBase64(token),
      id,
    );
    return token;
  }

  /**
   * A document's record as receipts carry it: its batch's token and each renewal, and the chains any
   * hash-tree renewal started for it. An export reads a batch's rows one after another, so a batch's
   * parts are kept a second (10,000 rows of a batch read them once).
   */
  partsFor(certificationId: number, batchId: number, now: number | 'uncached' = Date.now()): RecordParts {
    const links = this.linksOf(certificationId);
    if (links.length === 0 && now === 'uncached')
      return { first: this.coveredToken(batchId), renewals: this.renewalsOf(batchId) };
    if (links.length === 0 && now !== 'uncached') {
      const kept = this.recentParts.get(batchId);
      if (kept && now - kept.at < PARTS_KEPT_MS) return kept.parts;
      const parts = { first: this.coveredToken(batchId), renewals: this.renewalsOf(batchId) };
      if (this.recentParts.size >= 8) this.recentParts.delete(this.recentParts.keys().next().value as number);
      this.recentParts.set(batchId, { at: now, parts });
      return parts;
    }
    const [own, ...later] = this.chainsFrom(batchId, links) as [ChainRef, ...ChainRef[]];
    return {
      first: this.coveredToken(batchId),
      renewals: own.renewals.map(this.stampOf),
      later: later.map((chain) => ({
        first: this.stampOf(chain.first),
        renewals: chain.renewals.map(this.stampOf),
      })),
    };
  }

  private readonly stampOf = (row: Omit<StampRow, 'seq'>): RenewalStamp => ({
    token: this.coveredToken(row.id),
    reduced: (JSON.parse(row.reduced) as string[][]).map((list) => list.map(hexToBytes)),
    genTime: row.genTime,
    authority: row.authority,
  });

  /**
   * A document's record as stored: the chain its batch started, then one per hash-tree renewal of
   * it, each with the confirmed renewals it keeps (up to where the next chain took the document on).
   */
  chainRefs(certificationId: number, batchId: number): ChainRef[] {
    return this.chainsFrom(batchId, this.linksOf(certificationId));
  }

  /** The confirmed hash-tree renewals that took a document on, oldest first. */
  private linksOf(certificationId: number): ChainLink[] {
    return this.sql(
      `SELECT cs.renewal_id AS id, cs.prior_seq AS priorSeq, cs.reduced, t.gen_time AS genTime, t.authority
       FROM chain_stamps cs JOIN timestamp_batches t ON t.id = cs.renewal_id
       WHERE cs.certification_id = ? AND t.state = 'confirmed' ORDER BY cs.renewal_id`,
    ).all(certificationId) as ChainLink[];
  }

  private chainsFrom(batchId: number, links: readonly ChainLink[]): ChainRef[] {
    const starts = [{ id: batchId, reduced: '[]', genTime: 0, authority: '' }, ...links];
    return starts.map((first, i) => {
      const until = links[i]?.priorSeq ?? Number.MAX_SAFE_INTEGER;
      return { first, renewals: this.renewalRows(first.id).filter((row) => row.seq <= until) };
    });
  }

  /** The confirmed renewals of a chain's first archive timestamp (a batch's or a hash-tree renewal's), oldest first. */
  private renewalRows(ownerId: number): StampRow[] {
    return this.sql(
      `SELECT s.renewal_id AS id, s.seq, s.reduced, t.gen_time AS genTime, t.authority FROM archive_stamps s
       JOIN timestamp_batches t ON t.id = s.renewal_id
       WHERE s.batch_id = ? AND t.state = 'confirmed' ORDER BY s.seq`,
    ).all(ownerId) as StampRow[];
  }

  /** A batch's record after its first archive timestamp: each confirmed renewal, oldest first. */
  renewalsOf(batchId: number): RenewalStamp[] {
    return this.renewalRows(batchId).map(this.stampOf);
  }

  /** The confirmed renewals of a certification's record, oldest first: its custody register's events. */
  renewalsOfCertification(id: number): { at: number; authority: string }[] {
    const batchId = this.sql('SELECT timestamp_batch_id FROM certifications WHERE id = ?').pluck().get(id) as
      number | null;
    if (batchId === null || batchId === undefined) return [];
    // A receipt made before records: its record's first timestamp covers the receipt (and its token).
    const overReceipt = this.sql(
      `SELECT t.id, t.gen_time AS genTime, t.authority FROM receipt_records r
       JOIN timestamp_batches t ON t.id = r.renewal_id WHERE r.certification_id = ? AND t.state = 'confirmed'`,
    ).get(id) as Omit<StampRow, 'seq' | 'reduced'> | undefined;
    const stamps = overReceipt
      ? [overReceipt, ...this.renewalRows(overReceipt.id)]
      : this.chainRefs(id, batchId).flatMap((chain, i) =>
          i === 0 ? chain.renewals : [chain.first, ...chain.renewals],
        );
    return stamps.map((stamp) => ({ at: stamp.genTime, authority: stamp.authority }));
  }
}

function withKeptData(row: TokenRow): Uint8Array {
  const token = base64ToBytes(row.token);
  const kept = row.validation === null ? null : (JSON.parse(row.validation) as KeptValidation);
  return (
    withValidationData(token, (JSON.parse(row.chain) as string[]).map(base64ToBytes), {
      ocsp: (kept?.ocsp ?? []).map(base64ToBytes),
      crl: (kept?.crl ?? []).map(base64ToBytes),
    }) ?? token
  );
}
