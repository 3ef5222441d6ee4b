import type { Said } from '../../protocol/said';
import { readStoredSaid, storedSaid } from '../../protocol/said';
import type {
  CertificationRow,
  WatchStatus,
  WatchedFolderChoices,
  WatchedFolderView,
} from '../../protocol/views';
import type { QueueDb } from './database';
import type { NewCertification, QueueArrivals } from './queue';
import { statementCache } from './statements';

/**
 * What a look at a file saw: enough to tell whether it is still being written (the watcher's
 * stability gate) and whether a file seen before has changed since (kept here per folder).
 */
export interface Look {
  size: number;
  mtimeMs: number;
}

const COLUMNS = `id, path, matter, event_type AS eventType, asset_type AS assetType, source_system AS sourceSystem,
  include, subfolders, receipts_beside AS receiptsBeside, method, poll_seconds AS pollSeconds, settle_ms AS settleMs,
  paused, status, polled, problem, status_at AS statusAt, created_at AS createdAt`;

type Stored = Omit<WatchedFolderView, 'subfolders' | 'receiptsBeside' | 'paused' | 'polled' | 'problem'> & {
  subfolders: number;
  receiptsBeside: number;
  paused: number;
  polled: number;
  problem: string | null;
};

// A folder's choices as columns, in one order for inserting and updating.
const CHOICE_COLUMNS = [
  'matter',
  'event_type',
  'asset_type',
  'include',
  'subfolders',
  'receipts_beside',
  'method',
  'poll_seconds',
  'settle_ms',
] as const;

const choiceValues = (choices: Omit<WatchedFolderChoices, 'path'>) => [
  choices.matter,
  choices.eventType,
  choices.assetType,
  choices.include,
  choices.subfolders ? 1 : 0,
  choices.receiptsBeside ? 1 : 0,
  choices.method,
  choices.pollSeconds,
  choices.settleMs,
];

const folderOf = (stored: unknown): WatchedFolderView => {
  const row = stored as Stored;
  return {
    ...row,
    subfolders: row.subfolders === 1,
    receiptsBeside: row.receiptsBeside === 1,
    paused: row.paused === 1,
    // A paused folder is not watched, whatever its watcher last said.
    status: row.paused === 1 ? 'paused' : row.status,
    polled: row.polled === 1,
    problem: row.paused === 1 ? null : readStoredSaid(row.problem),
  };
};

/** A file found ready in a watched folder, hashed, with the row it would become. */
export interface ArrivedFile {
  /** Relative to the folder, '/' between folders. */
  path: string;
  look: Look;
  item: NewCertification;
}

/**
 * Watched folders and what was seen in them, in the queue's database: a folder's choices, how it is
 * doing (for every process: the app, the tray, `watch list`), and per file the size, time and
 * content last certified or found certified, which is what a restart catches up against.
 */
export class WatchedFolderStore {
  private readonly sql;

  constructor(
    private readonly db: QueueDb,
    private readonly arrivals: QueueArrivals,
  ) {
    this.sql = statementCache(db);
  }

  list(profileId: string): WatchedFolderView[] {
    return this.sql(`SELECT ${COLUMNS} FROM watched_folders WHERE profile_id = ? ORDER BY path`)
      .all(profileId)
      .map(folderOf);
  }

  get(id: number): WatchedFolderView | undefined {
    const stored = this.sql(`SELECT ${COLUMNS} FROM watched_folders WHERE id = ?`).get(id);
    return stored === undefined ? undefined : folderOf(stored);
  }

  /** Adds a folder; null when this profile already watches it. */
  add(
    profileId: string,
    choices: WatchedFolderChoices,
    sourceSystem: string,
    now = Date.now(),
  ): number | null {
    const { changes, lastInsertRowid } = this.sql(
      `INSERT INTO watched_folders (${CHOICE_COLUMNS.join(', ')}, profile_id, path, source_system, created_at)
       VALUES (${CHOICE_COLUMNS.map(() => '?').join(', ')}, ?, ?, ?, ?) ON CONFLICT (profile_id, path) DO NOTHING`,
    ).run(...choiceValues(choices), profileId, choices.path, sourceSystem, now);
    return changes === 1 ? Number(lastInsertRowid) : null;
  }

  /** Changes a folder's choices; what was seen in it stays. */
  update(id: number, choices: Omit<WatchedFolderChoices, 'path'>): void {
    this.sql(
      `UPDATE watched_folders SET ${CHOICE_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE id = ?`,
    ).run(...choiceValues(choices), id);
  }

  /** Stops watching a folder: its certifications stay, what was seen in it goes. */
  remove(id: number): void {
    this.db.transaction(() => {
      this.sql('DELETE FROM watched_files WHERE folder_id = ?').run(id);
      this.sql('DELETE FROM watched_folders WHERE id = ?').run(id);
    })();
  }

  setPaused(id: number, paused: boolean): void {
    this.sql('UPDATE watched_folders SET paused = ? WHERE id = ?').run(paused ? 1 : 0, id);
  }

  /** How the folder is doing; written only when it changed, so other processes see real news. */
  setStatus(
    id: number,
    status: WatchStatus,
    problem: Said | null,
    polled: boolean,
    now = Date.now(),
  ): boolean {
    const text = problem && storedSaid(problem);
    return (
      this.sql(
        `UPDATE watched_folders SET status = ?, problem = ?, polled = ?, status_at = ?
         WHERE id = ? AND (status <> ? OR problem IS NOT ? OR polled <> ?)`,
      ).run(status, text, polled ? 1 : 0, now, id, status, text, polled ? 1 : 0).changes === 1
    );
  }

  /** What was seen in a folder: each file's size and time when last certified or found certified. */
  seen(folderId: number): Map<string, Look> {
    const rows = this.sql(
      'SELECT path, size, mtime_ms AS mtimeMs FROM watched_files WHERE folder_id = ?',
    ).all(folderId) as { path: string; size: number; mtimeMs: number }[];
    return new Map(rows.map(({ path, size, mtimeMs }) => [path, { size, mtimeMs }]));
  }

  seenOne(folderId: number, path: string): (Look & { assetHash: string }) | undefined {
    return this.sql(
      'SELECT size, mtime_ms AS mtimeMs, asset_hash AS assetHash FROM watched_files WHERE folder_id = ? AND path = ?',
    ).get(folderId, path) as (Look & { assetHash: string }) | undefined;
  }

  forget(folderId: number, paths: readonly string[]): void {
    const forget = this.sql('DELETE FROM watched_files WHERE folder_id = ? AND path = ?');
    this.db.transaction(() => {
      for (const path of paths) forget.run(folderId, path);
    })();
  }

  /**
   * Files that arrived, in one transaction holding the write lock: content certified here already
   * (a rename, a copy, the same file certified by `certify`) is only noted as seen; new content is
   * queued, following the certification of the file's earlier content when it changed after it was
   * certified. Whatever happens around it, each content is certified once.
   */
  recordArrivals(folderId: number, arrivals: readonly ArrivedFile[], now = Date.now()): CertificationRow[] {
    const remember = this.sql(
      `INSERT INTO watched_files (folder_id, path, size, mtime_ms, asset_hash, certification_id) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (folder_id, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
       asset_hash = excluded.asset_hash, certification_id = excluded.certification_id`,
    );
    const certificationOf = this.sql(
      'SELECT certification_id, asset_hash AS assetHash FROM watched_files WHERE folder_id = ? AND path = ?',
    );
    return this.db
      .transaction(() => {
        const items = arrivals.map(({ path, item }) => {
          const before = certificationOf.get(folderId, path) as
            { certification_id: number | null; assetHash: string } | undefined;
          const followsId = before && before.assetHash !== item.assetHash ? before.certification_id : null;
          return { ...item, watchedFolderId: folderId, followsId };
        });
        const { queued, earlier } = this.arrivals.enqueueUncertified(items, now);
        const queuedByHash = new Map(queued.map((row) => [row.assetHash, row]));
        arrivals.forEach(({ path, look, item }, index) => {
          const certification = earlier[index] ?? queuedByHash.get(item.assetHash);
          remember.run(folderId, path, look.size, look.mtimeMs, item.assetHash, certification?.id ?? null);
        });
        return queued;
      })
      .immediate();
  }
}
