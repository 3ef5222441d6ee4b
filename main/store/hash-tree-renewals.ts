import { sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes } from '../../verifier/bytes';
import type { TreeHash } from '../../verifier/evidence-record/hash-tree';
import { hashTree } from '../../verifier/evidence-record/hash-tree';
import { chainsDer, chainsOfStamps } from '../../verifier/evidence-record/evidence-record';
import type { QueueDb } from './database';
import type { RecordChains } from './record-chains';
import { stampsOfRecord } from './record-chains';
import { statementCache } from './statements';

/*
 * Hash-tree renewal (RFC 4998 §5.2), once IT retires SHA-256: each document found is hashed again
 * with SHA-512, and one request over a SHA-512 tree starts a new chain of its record. A record then
 * is the document's own: its new chain's leaf is H(H(document) ‖ H(its chains so far)), which no
 * other document shares. Opened in one transaction, like a timestamp renewal: a crash leaves every
 * record as it was, or renewing.
 */

/** A document whose record rests on a retired hash, and where it may be found. */
export interface DocumentToRenew {
  certificationId: number;
  profileId: string;
  batchId: number;
  fileName: string;
  /** Where it was when certified. */
  filePath: string;
  fileSize: number;
  assetHash: string;
  matter: string | null;
  /** Where a watched folder last saw this content (absolute paths). */
  watchedPaths: string[];
}

/** A document found again, with the SHA-512 of its bytes. */
export interface FoundDocument {
  certificationId: number;
  sha512: Uint8Array;
}

export class HashTreeRenewals {
  private readonly sql;

  constructor(
    private readonly db: QueueDb,
    private readonly chains: RecordChains,
  ) {
    this.sql = statementCache(db);
  }

  /**
   * Documents whose record's newest chain uses a retired hash (`retired`), not being renewed to a
   * stronger one already; by matter and name.
   */
  due(retired: readonly TreeHash[], now = Date.now()): DocumentToRenew[] {
    if (!retired.includes('sha256')) return [];
    const rows = this.sql(
      `SELECT c.id AS certificationId, c.profile_id AS profileId, c.timestamp_batch_id AS batchId,
         c.file_name AS fileName, c.file_path AS filePath, c.file_size AS fileSize, c.asset_hash AS assetHash,
         c.matter, o.hash, o.state,
         COALESCE((SELECT t.holds_until FROM archive_stamps s JOIN timestamp_batches t ON t.id = s.renewal_id
                   WHERE s.batch_id = o.id AND t.state = 'confirmed' ORDER BY s.seq DESC LIMIT 1),
                  o.holds_until) AS holdsUntil
       FROM certifications c
       JOIN timestamp_batches b ON b.id = c.timestamp_batch_id
       JOIN timestamp_batches o ON o.id = COALESCE(
         (SELECT MAX(cs.renewal_id) FROM chain_stamps cs WHERE cs.certification_id = c.id), b.id)
       WHERE b.kind = 'batch' AND b.tree = 'rfc4998' AND b.state = 'confirmed'
       ORDER BY c.matter, c.file_name, c.id`,
    ).all() as (Omit<DocumentToRenew, 'watchedPaths'> & {
      hash: TreeHash;
      state: string;
      holdsUntil: number | null;
    })[];
    const seenIn = this.sql(
      `SELECT f.path AS folder, w.path FROM watched_files w JOIN watched_folders f ON f.id = w.folder_id
       WHERE w.asset_hash = ?`,
    );
    // A record past its newest timestamp's end is not renewed: a renewal would come too late to carry it.
    return rows
      .filter(
        (row) =>
          row.state === 'confirmed' &&
          retired.includes(row.hash) &&
          (row.holdsUntil === null || row.holdsUntil > now),
      )
      .map(({ hash: _hash, state: _state, holdsUntil: _holdsUntil, ...row }) => ({
        ...row,
        watchedPaths: (seenIn.all(row.assetHash) as { folder: string; path: string }[]).map(
          ({ folder, path }) => `${folder.replace(/[\\/]+$/, '')}/${path}`,
        ),
      }));
  }

  /** A token whose validation data is still being collected. */
  private collecting(id: number): boolean {
    return this.sql('SELECT validation_due_at FROM timestamp_batches WHERE id = ?').pluck().get(id) !== null;
  }

  private renewedBefore(certificationId: number): boolean {
    return (
      this.sql('SELECT 1 FROM chain_stamps WHERE certification_id = ?').get(certificationId) !== undefined
    );
  }

  /**
   * Opens one hash-tree renewal over the documents found (all of one profile, asked of `tsaUrl`):
   * each record's chains so far are frozen as they are, and the new chain's leaf covers the
   * document and them. A document whose tokens' validation data is still being collected waits for
   * it (frozen without it, it would be missing for good). Returns the renewal's id and how many
   * documents it took on, or null when there was nothing to open.
   */
  open(
    profileId: string,
    tsaUrl: string,
    found: readonly FoundDocument[],
    now = Date.now(),
  ): { id: number; documents: number } | null {
    if (found.length === 0) return null;
    const opening = this.db.transaction(() => {
      const leaves = new Map<number, { leaf: Uint8Array; fromId: number; priorSeq: number }>();
      for (const document of found) {
        const row = this.sql(
          `SELECT c.profile_id AS profileId, c.timestamp_batch_id AS batchId, c.timestamp_path AS reduced
           FROM certifications c WHERE c.id = ?`,
        ).get(document.certificationId) as
          { profileId: string; batchId: number; reduced: string } | undefined;
        // Renewed to SHA-512 already, or being renewed: never twice.
        if (!row || row.profileId !== profileId || this.renewedBefore(document.certificationId)) continue;
        const chains = this.chains.chainRefs(document.certificationId, row.batchId);
        const stampIds = chains.flatMap((chain) => [
          chain.first.id,
          ...chain.renewals.map((stamp) => stamp.id),
        ]);
        if (stampIds.some((id) => this.collecting(id))) continue;
        // What the new chain covers must never change again: every token of the chains so far is frozen.
        for (const chain of chains)
          for (const stamp of [chain.first, ...chain.renewals]) this.chains.freeze(stamp.id);
        const reduced = (JSON.parse(row.reduced) as string[][]).map((list) => list.map(hexToBytes));
        const parts = this.chains.partsFor(document.certificationId, row.batchId, 'uncached');
        const sequence = chainsDer(chainsOfStamps(stampsOfRecord(parts, reduced)));
        const last = chains.at(-1);
        leaves.set(document.certificationId, {
          leaf: sha512(concatBytes(document.sha512, sha512(sequence))),
          fromId: last?.first.id ?? row.batchId,
          priorSeq: last?.renewals.at(-1)?.seq ?? 0,
        });
      }
      if (leaves.size === 0) return null;
      const tree = hashTree(
        [...leaves.values()].map((entry) => entry.leaf),
        'sha512',
      );
      const renewalId = this.chains.openChainStart(profileId, tsaUrl, tree.root, 'sha512', leaves.size, now);
      const add = this.sql(
        `INSERT INTO chain_stamps (certification_id, renewal_id, from_id, prior_seq, reduced) VALUES (?, ?, ?, ?, ?)`,
      );
      for (const [certificationId, entry] of leaves)
        add.run(
          certificationId,
          renewalId,
          entry.fromId,
          entry.priorSeq,
          JSON.stringify(tree.reduced(entry.leaf).map((list) => list.map(bytesToHex))),
        );
      return { id: renewalId, documents: leaves.size };
    });
    // Immediate: the app and a `renew` beside it never both open one.
    return opening.immediate();
  }
}
