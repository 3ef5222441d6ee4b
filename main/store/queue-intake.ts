import type { CertificationRow } from '../../protocol/views';
import { hashKeyOf, timeOrderedUuid } from './keys';
import type { NewCertification } from './row-transitions';
import type { ContentReads } from './content-reads';
import type { QueueReads } from './queue-reads';
import type { RowTransitions } from './row-transitions';
import { freshRow } from './row-transitions';
import { ContentKeys } from './content-keys';

/** A content as "already certified here" compares it: per profile, by its SHA-256. */
const contentOf = (item: Pick<NewCertification, 'profileId' | 'assetHash'>) =>
  `${item.profileId}:${item.assetHash.toLowerCase()}`;

/**
 * Rows coming in: every new certification is written here, with its X-Request-Id for life, and
 * announced on the change feed. What happens to a row afterwards is the sending's and corrections'.
 */
export class QueueIntake {
  private readonly keys: ContentKeys;

  constructor(
    private readonly rows: RowTransitions,
    private readonly reads: QueueReads,
    private readonly byContent: ContentReads,
  ) {
    this.keys = new ContentKeys(rows.db);
  }

  /** Writes rows the moment their hashes are known, each with a fresh X-Request-Id for life. */
  enqueue(items: readonly NewCertification[], now = Date.now()): CertificationRow[] {
    const insert = this.rows.sql(
      `INSERT INTO certifications (profile_id, request_id, file_path, file_name, file_size, asset_hash, asset_type,
       source_system, event_type, state, next_attempt_at, created_at, updated_at, certified_by, certified_on,
       certifier_name, certifier_firm, matter, batch_id, watched_folder_id, follows_id, hash_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const inserted = () =>
      items.map((item): CertificationRow => {
        const requestId = timeOrderedUuid(now);
        const hashKey = hashKeyOf(item.assetHash);
        const { lastInsertRowid } = insert.run(
          item.profileId,
          requestId,
          item.filePath,
          item.fileName,
          item.fileSize,
          item.assetHash,
          item.assetType,
          item.sourceSystem,
          item.eventType,
          now,
          now,
          now,
          item.certifiedBy ?? null,
          item.certifiedOn ?? null,
          item.certifierName ?? null,
          item.certifierFirm ?? null,
          item.matter ?? null,
          item.batchId ?? now,
          item.watchedFolderId ?? null,
          item.followsId ?? null,
          hashKey,
        );
        this.keys.add(hashKey, lastInsertRowid);
        return freshRow(item, Number(lastInsertRowid), requestId, now);
      });
    const rows = this.rows.db.transaction(() => {
      const written = inserted();
      this.rows.counts.addQueued(items);
      this.keys.mergeWhenMany();
      return written;
    })();
    for (const row of rows) this.rows.feed.noteChanged(row.id, 'queued');
    return rows;
  }

  /**
   * Writes the rows whose content is not certified here yet (the same content twice in one batch:
   * once), and names the earlier certification of the others, in one transaction that holds the
   * write lock from its first read: two processes certifying the same content at once (a watched
   * folder and a `certify` of it) write it once.
   */
  enqueueUncertified(
    items: readonly NewCertification[],
    now = Date.now(),
  ): { queued: CertificationRow[]; earlier: (CertificationRow | null)[] } {
    return this.rows.db
      .transaction(() => {
        const live = new Map<string, number>();
        for (const profileId of new Set(items.map((item) => item.profileId))) {
          const hashes = items.filter((item) => item.profileId === profileId).map((item) => item.assetHash);
          for (const [hash, id] of this.byContent.firstLiveIdsByHash(profileId, hashes))
            live.set(contentOf({ profileId, assetHash: hash }), id);
        }
        const firstOfItsContent = new Set<string>();
        const fresh = items.filter((item) => {
          const content = contentOf(item);
          if (live.has(content) || firstOfItsContent.has(content)) return false;
          firstOfItsContent.add(content);
          return true;
        });
        const queued = this.enqueue(fresh, now);
        const writtenNow = new Map(queued.map((row) => [contentOf(row), row]));
        const isFresh = new Set(fresh);
        return {
          queued,
          earlier: items.map((item) => {
            if (isFresh.has(item)) return null;
            const id = live.get(contentOf(item));
            return (id === undefined ? writtenNow.get(contentOf(item)) : this.reads.get(id)) ?? null;
          }),
        };
      })
      .immediate();
  }
}
