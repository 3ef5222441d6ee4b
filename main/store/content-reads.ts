import type { CertificationRow } from '../../protocol/views';
import type { QueueDb } from './database';
import { idsWithKeysIn } from './content-keys';
import { hashKeyOf } from './keys';
import { COLUMNS, rowOf } from './queue-reads';
import { statementCache } from './statements';

/** An anchored certification as lookups need it: what, and the times its log signed (loggedTimes). */
export interface AnchoredFacts {
  id: number;
  serviceId: string | null;
  assetHash: string;
  fileName: string;
  /** Its evidence was checked and holds: only then do the logged times stand as signed. */
  verified: boolean;
  loggedCertifiedAt: string | null;
  /** The signed tree head's time, ISO 8601 to the millisecond. */
  loggedTreeHeadAt: string | null;
}

/** The columns of AnchoredFacts, over certifications `c` joined with their logged_times `l`. */
const FACTS = `c.id, c.service_id AS serviceId, c.asset_hash AS assetHash, c.file_name AS fileName,
  l.verified, l.certified_at AS loggedCertifiedAt, l.tree_head_at AS loggedTreeHeadAt`;
const factsOf = (row: unknown): AnchoredFacts =>
  Object.assign(row as AnchoredFacts, { verified: (row as { verified: number }).verified === 1 });

/**
 * The queue read by content, through the content keys (content-keys.ts): "already certified here?"
 * for the intake, a file's certifications for its verification, and a register's contents for a
 * set check. Nothing here writes.
 */
export class ContentReads {
  private readonly sql;

  constructor(db: QueueDb) {
    this.sql = statementCache(db);
  }

  /**
   * A profile's anchored certifications as lookups need them, oldest first, a page at a time (those
   * after an id): with the times their log signed, as kept when each was anchored, not read again
   * from 10,000 evidences.
   */
  anchoredSignedFacts(profileId: string, page: { afterId: number; limit: number }): AnchoredFacts[] {
    return this.sql(
      `SELECT ${FACTS} FROM certifications c INDEXED BY certifications_anchored_facts
         JOIN logged_times l ON l.certification_id = c.id
       WHERE c.profile_id = ? AND c.state = 'anchored' AND c.id > ? ORDER BY c.id LIMIT ?`,
    )
      .all(profileId, page.afterId, page.limit)
      .map(factsOf);
  }

  /**
   * The anchored certifications of these contents (at most 500 at a time), as anchoredSignedFacts
   * gives them: a register of 20 lines is looked up by its 20 contents, not against every
   * certification this computer ever anchored.
   */
  anchoredSignedFactsOf(profileId: string, assetHashes: readonly string[]): AnchoredFacts[] {
    if (assetHashes.length === 0) return [];
    if (assetHashes.length > 500) throw new RangeError('At most 500 contents at a time.');
    const wanted = idsWithKeysIn(assetHashes.map((hash) => hashKeyOf(hash.toLowerCase())));
    // Each found in the anchored facts' own index, not in its row of several kilobytes: at a
    // million rows 7.6 against 12.1 µs a content (at 100,000, 6.2 against 9.2).
    return this.sql(
      `SELECT ${FACTS} FROM (${wanted.sql}) k
         CROSS JOIN certifications c INDEXED BY certifications_anchored_facts
           ON c.profile_id = ? AND c.id = k.id AND c.state = 'anchored'
         JOIN logged_times l ON l.certification_id = c.id
       ORDER BY c.id`,
    )
      .all(...wanted.params, profileId)
      .map(factsOf);
  }

  findByHash(profileId: string, assetHash: string): CertificationRow[] {
    const wanted = idsWithKeysIn([hashKeyOf(assetHash.toLowerCase())]);
    return this.sql(
      `SELECT ${COLUMNS} FROM certifications WHERE id IN (${wanted.sql})
       AND profile_id = ? AND asset_hash = ? ORDER BY id`,
    )
      .all(...wanted.params, profileId, assetHash.toLowerCase())
      .map(rowOf);
  }

  /**
   * The oldest certification that did not fail of each of these contents that has one (what "already
   * certified" points to), in a few statements: a batch of 1,000 new files asks once per 500.
   */
  firstLiveIdsByHash(profileId: string, assetHashes: readonly string[]): Map<string, number> {
    const hexes = [...new Set(assetHashes.map((hash) => hash.toLowerCase()))];
    const found = new Map<string, number>();
    for (let start = 0; start < hexes.length; start += 500) {
      const chunk = hexes.slice(start, start + 500);
      // The keys first (CROSS JOIN): for 500 keys SQLite's planner would rather walk an index of the
      // profile, every row of it, and queueing grew slower with every 10,000 rows the queue held.
      const wanted = idsWithKeysIn(chunk.map(hashKeyOf));
      const rows = this.sql(
        `SELECT c.asset_hash AS hash, MIN(c.id) AS id FROM (${wanted.sql}) k
         CROSS JOIN certifications c ON c.id = k.id
         WHERE c.profile_id = ? AND c.state <> 'failed'
         GROUP BY c.asset_hash`,
      ).all(...wanted.params, profileId) as { hash: string; id: number }[];
      for (const { hash, id } of rows) found.set(hash, id);
    }
    return found;
  }

  /** Certifications of a file with this name whose content was different: "changed since" for verify. */
  findSameNameOtherContent(profileId: string, fileName: string, assetHash: string): CertificationRow[] {
    return this.sql(
      `SELECT ${COLUMNS} FROM certifications WHERE profile_id = ? AND file_name = ? AND asset_hash <> ? ORDER BY id DESC LIMIT 5`,
    )
      .all(profileId, fileName, assetHash.toLowerCase())
      .map(rowOf);
  }
}
