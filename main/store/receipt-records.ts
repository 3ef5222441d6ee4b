import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '../../verifier/bytes';
import { hashTree } from '../../verifier/evidence-record/hash-tree';
import type { QueueDb } from './database';
import type { RecordChains, RecordParts } from './record-chains';
import { inChunks, statementCache } from './statements';

/*
 * Records for certifications timestamped before records were (an RFC 6962 tree: v2 and v3
 * receipts). Their token cannot be a record's first archive timestamp of the document, so, as
 * archive timestamps do for signatures, the record's data object is the receipt: token and
 * validation data inside, kept byte for byte. One request covers every such receipt; from then on
 * the record is renewed like any other, and the receipt's own token keeps proving the first time.
 */

/** A receipt timestamped into a record: its exact text, and its way to the first archive timestamp's root. */
export interface ReceiptRecordRow {
  renewalId: number;
  receipt: string;
  reduced: Uint8Array[][];
}

/** A receipt's record as the store holds it, and whether its first archive timestamp is confirmed. */
export type RecordedReceipt = ReceiptRecordRow & { confirmed: boolean };

export class ReceiptRecords {
  private readonly sql;

  constructor(
    private readonly db: QueueDb,
    private readonly chains: RecordChains,
  ) {
    this.sql = statementCache(db);
  }

  /**
   * Anchored certifications whose timestamp is over an RFC 6962 tree and that have no record yet;
   * not while their token's validation data is being collected (a receipt is frozen whole, once).
   */
  without(): { certificationId: number; profileId: string }[] {
    return this.sql(
      `SELECT c.id AS certificationId, c.profile_id AS profileId FROM certifications c
       JOIN timestamp_batches b ON b.id = c.timestamp_batch_id
       WHERE b.tree = 'rfc6962' AND b.state = 'confirmed' AND c.state = 'anchored' AND b.validation_due_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM receipt_records r WHERE r.certification_id = c.id)
       ORDER BY c.id`,
    ).all() as { certificationId: number; profileId: string }[];
  }

  /**
   * Opens one request over these receipts (their exact text), all of one profile, asked of
   * `tsaUrl`: its tree is over each receipt's SHA-256. Returns its id, or null when none was opened
   * (each certification gets one record only).
   */
  open(
    profileId: string,
    tsaUrl: string,
    receipts: readonly { certificationId: number; text: string }[],
    now = Date.now(),
  ): number | null {
    const opening = this.db.transaction(() => {
      const fresh = receipts.filter((receipt) => !this.of(receipt.certificationId));
      if (fresh.length === 0) return null;
      const leafOf = (text: string) => sha256(new TextEncoder().encode(text));
      const tree = hashTree(fresh.map((receipt) => leafOf(receipt.text)));
      const renewalId = this.chains.openChainStart(profileId, tsaUrl, tree.root, 'sha256', fresh.length, now);
      const add = this.sql(
        'INSERT INTO receipt_records (certification_id, renewal_id, receipt, reduced) VALUES (?, ?, ?, ?)',
      );
      for (const receipt of fresh)
        add.run(
          receipt.certificationId,
          renewalId,
          receipt.text,
          JSON.stringify(tree.reduced(leafOf(receipt.text)).map((list) => list.map(bytesToHex))),
        );
      return renewalId;
    });
    // Immediate: the app and a `renew` beside it never both open one.
    return opening.immediate();
  }

  /** A certification's receipt record, confirmed or waiting; undefined when it has none. */
  of(certificationId: number): RecordedReceipt | undefined {
    return this.ofMany([certificationId]).get(certificationId);
  }

  /** The records of these certifications' receipts (a few hundred ids), in one statement rather than one per id. */
  ofMany(certificationIds: readonly number[]): Map<number, RecordedReceipt> {
    const rows = inChunks(
      certificationIds,
      (chunk, marks) =>
        this.sql(
          `SELECT r.certification_id AS id, r.renewal_id AS renewalId, r.receipt, r.reduced, t.state
           FROM receipt_records r JOIN timestamp_batches t ON t.id = r.renewal_id WHERE r.certification_id IN (${marks})`,
        ).all(...chunk) as {
          id: number;
          renewalId: number;
          receipt: string;
          reduced: string;
          state: string;
        }[],
    );
    return new Map(
      rows.map((row) => [
        row.id,
        {
          renewalId: row.renewalId,
          receipt: row.receipt,
          reduced: (JSON.parse(row.reduced) as string[][]).map((list) => list.map(hexToBytes)),
          confirmed: row.state === 'confirmed',
        },
      ]),
    );
  }

  /** The record's parts once its first archive timestamp is confirmed: that token, then each renewal of it. */
  partsOf(record: ReceiptRecordRow): RecordParts {
    return {
      first: this.chains.coveredToken(record.renewalId),
      renewals: this.chains.renewalsOf(record.renewalId),
    };
  }
}
