import { WAITING_STATES, emptyCounts } from '../../protocol/states';
import type { LocalState, StateCounts } from '../../protocol/states';
import type { AuditEntry, CertificationRow, HistoryEntry, MatterCount } from '../../protocol/views';
import { readStoredSaid } from '../../protocol/said';
import { DeskError } from '../errors';
import type { QueueDb } from './database';
import type { ListQuery } from './list-query';
import { candidatesOf, orderOf, searchableByIndex, whereOf } from './list-query';
import { inChunks, statementCache } from './statements';
import { said } from '../../protocol/said';

export type { ListQuery };

export const COLUMNS = `id, profile_id AS profileId, request_id AS requestId, file_path AS filePath, file_name AS fileName,
  file_size AS fileSize, asset_hash AS assetHash, asset_type AS assetType, source_system AS sourceSystem,
  event_type AS eventType, state, attempts, next_attempt_at AS nextAttemptAt, service_id AS serviceId,
  service_state AS serviceState, error_code AS errorCode, error_message AS errorMessage, raw_response AS rawResponse,
  evidence, verification, verification_message AS verificationMessage, created_at AS createdAt,
  updated_at AS updatedAt, anchored_at AS anchoredAt, certified_by AS certifiedBy, certified_on AS certifiedOn,
  certifier_name AS certifierName, certifier_firm AS certifierFirm,
  matter, batch_id AS batchId, timestamp_path AS timestampPath, watched_folder_id AS watchedFolderId,
  follows_id AS followsId,
  (SELECT state FROM timestamp_batches t WHERE t.id = timestamp_batch_id) AS timestampState,
  (SELECT authority FROM timestamp_batches t WHERE t.id = timestamp_batch_id) AS timeConfirmedBy,
  (SELECT gen_time FROM timestamp_batches t WHERE t.id = timestamp_batch_id) AS timeConfirmedAt,
  (SELECT COALESCE(problem, validation_problem) FROM timestamp_batches t WHERE t.id = timestamp_batch_id) AS timestampProblem`;
// A search that matches more rows than this reads the list in order rather than by id (filterOf).
const FEW_MATCHES = 5000;
const WAITING = WAITING_STATES.map((state) => `'${state}'`).join(', ');

/**
 * A row as the table holds it: evidence and the sayings as JSON text. `rowOf` reads them once,
 * here, so everything above the store gets evidence as a value and what was said as sayings.
 */
type StoredRow = Omit<
  CertificationRow,
  'evidence' | 'errorMessage' | 'verificationMessage' | 'timestampProblem'
> & {
  evidence: string | null;
  errorMessage: string | null;
  verificationMessage: string | null;
  timestampProblem: string | null;
};

export function rowOf(stored: unknown): CertificationRow {
  const row = stored as StoredRow;
  return {
    ...row,
    evidence: row.evidence === null ? null : (JSON.parse(row.evidence) as unknown),
    errorMessage: readStoredSaid(row.errorMessage),
    verificationMessage: readStoredSaid(row.verificationMessage),
    timestampProblem: readStoredSaid(row.timestampProblem),
  };
}

export const notFound = (id: number) => new DeskError('not_found', said('queue.noCertification', { id }));

/** The queue's read side: what the screens, the CLI and the engine ask of it. Nothing here writes. */
export class QueueReads {
  private readonly sql;

  constructor(private readonly db: QueueDb) {
    this.sql = statementCache(db);
  }

  /** Pending rows of a profile whose next look at the service is due. */
  duePolls(profileId: string, now: number, limit: number): CertificationRow[] {
    return this.sql(
      `SELECT ${COLUMNS} FROM certifications WHERE profile_id = ? AND state = 'pending' AND next_attempt_at <= ?
       ORDER BY next_attempt_at, id LIMIT ?`,
    )
      .all(profileId, now, limit)
      .map(rowOf);
  }

  /** When the earliest queued or pending row of a profile becomes due, if any. */
  nextDueAt(profileId: string): number | null {
    return (
      (this.sql(
        `SELECT MIN(next_attempt_at) FROM certifications WHERE profile_id = ? AND state IN ('queued', 'pending')`,
      )
        .pluck()
        .get(profileId) as number | null) ?? null
    );
  }

  counts(profileId: string): StateCounts {
    const counts = emptyCounts();
    const rows = this.sql(
      'SELECT state, SUM(n) AS n FROM state_counts WHERE profile_id = ? GROUP BY state',
    ).all(profileId) as { state: LocalState; n: number }[];
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  list(query: ListQuery): CertificationRow[] {
    const { from, where, params } = this.filterOf(query);
    return this.sql(
      `SELECT ${COLUMNS} FROM ${from} WHERE ${where} ORDER BY ${orderOf(query.sort)} LIMIT ? OFFSET ?`,
    )
      .all(...params, query.limit, query.offset ?? 0)
      .map(rowOf);
  }

  /** The ids of every row the filter matches, in the list's order: an export's selection, read once. */
  ids(query: Omit<ListQuery, 'limit' | 'offset'>): number[] {
    const { from, where, params } = this.filterOf(query);
    return this.sql(`SELECT id FROM ${from} WHERE ${where} ORDER BY ${orderOf(query.sort)}`)
      .pluck()
      .all(...params) as number[];
  }

  /**
   * Where a list or count reads from. A search with few matches reads them by id (NOT INDEXED: or
   * SQLite walks the list's order index through a million rows, testing each id); any other filter
   * reads its own index in the list's order.
   */
  private filterOf(query: Omit<ListQuery, 'limit' | 'offset' | 'sort'>): {
    from: string;
    where: string;
    params: unknown[];
  } {
    const byIndex = query.search !== undefined && query.search !== '' && this.fewMatch(query);
    if (byIndex) return { from: 'certifications NOT INDEXED', ...whereOf(query, 'by-index') };
    // Few rows in these states (none anchored yet, a few failed): read from the states' index.
    // Without statistics SQLite walks the list's order instead, a million rows to find none.
    const fewInStates = query.states?.length && !query.search && this.count(query) <= FEW_MATCHES;
    return {
      from: fewInStates ? 'certifications INDEXED BY certifications_by_state' : 'certifications',
      ...whereOf(query, 'in-order'),
    };
  }

  /** At most FEW_MATCHES names or hashes hold the search, counted in their indexes. */
  private fewMatch(query: Omit<ListQuery, 'limit' | 'offset' | 'sort'>): boolean {
    const search = query.search as string;
    if (!searchableByIndex(search)) return false;
    const { sql, params } = candidatesOf(query.profileId, search);
    const found = this.sql(`SELECT COUNT(*) FROM (${sql} LIMIT ${FEW_MATCHES + 1})`)
      .pluck()
      .get(...params) as number;
    return found <= FEW_MATCHES;
  }

  /** How many rows `list` would page through for the same filter and search. */
  count(query: Omit<ListQuery, 'limit' | 'offset' | 'sort'>): number {
    // Without a search, the counts kept by matter and state answer (migration 20).
    if (!query.search) {
      const { where, params } = whereOf(query);
      return this.sql(`SELECT COALESCE(SUM(n), 0) FROM state_counts WHERE ${where}`)
        .pluck()
        .get(...params) as number;
    }
    const { from, where, params } = this.filterOf(query);
    return this.sql(`SELECT COUNT(*) FROM ${from} WHERE ${where}`)
      .pluck()
      .get(...params) as number;
  }

  get(id: number): CertificationRow | undefined {
    const stored = this.sql(`SELECT ${COLUMNS} FROM certifications WHERE id = ?`).get(id);
    return stored === undefined ? undefined : rowOf(stored);
  }

  /** The rows with these ids that still exist, in the order given. */
  getMany(ids: readonly number[]): CertificationRow[] {
    const byId = new Map(
      inChunks(ids, (chunk, marks) =>
        this.sql(`SELECT ${COLUMNS} FROM certifications WHERE id IN (${marks})`).all(...chunk),
      ).map((stored) => {
        const row = rowOf(stored);
        return [row.id, row] as const;
      }),
    );
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Which of these ids are still on their way (queued, being sent or pending). */
  stillWaiting(ids: readonly number[]): number[] {
    return inChunks(
      ids,
      (chunk, marks) =>
        this.db
          .prepare(`SELECT id FROM certifications WHERE id IN (${marks}) AND state IN (${WAITING})`)
          .pluck()
          .all(...chunk) as number[],
    );
  }

  /** The row's timeline: queued when it was created (no history row of its own), then every later state. */
  history(id: number): HistoryEntry[] {
    return this.histories([this.require(id)]).get(id) ?? [];
  }

  /** The timelines of these rows (at most a few hundred), in two statements rather than one per row. */
  histories(rows: readonly Pick<CertificationRow, 'id' | 'createdAt'>[]): Map<number, HistoryEntry[]> {
    const timelines = new Map<number, HistoryEntry[]>(
      rows.map((row) => [row.id, [{ state: 'queued', at: row.createdAt, note: null }]]),
    );
    const later = inChunks(
      rows.map((row) => row.id),
      (chunk, marks) =>
        this.sql(
          `SELECT certification_id AS id, state, at, note FROM state_history
           WHERE certification_id IN (${marks}) ORDER BY certification_id, at, rowid`,
        ).all(...chunk) as (Omit<HistoryEntry, 'note'> & { id: number; note: string | null })[],
    );
    for (const { id, ...entry } of later)
      timelines.get(id)?.push({ ...entry, note: readStoredSaid(entry.note) });
    return timelines;
  }

  /** The matters of a profile, most recently used first: the batch form offers them. */
  recentMatters(profileId: string, limit = 10): string[] {
    return this.sql(
      // Each matter's newest batch read from the top of its index, not from every row it has.
      `SELECT matter FROM (SELECT DISTINCT matter FROM state_counts WHERE profile_id = @profileId AND matter IS NOT NULL AND n > 0) m
       ORDER BY (SELECT MAX(batch_id) FROM certifications c WHERE c.profile_id = @profileId AND c.matter = m.matter) DESC,
         matter LIMIT @limit`,
    )
      .pluck()
      .all({ profileId, limit }) as string[];
  }

  /** Every matter of a profile with its counts by state, in name order (no matter last). */
  matterCounts(profileId: string): MatterCount[] {
    const rows = this.sql(
      `SELECT matter, state, n FROM state_counts WHERE profile_id = ? AND n > 0
       ORDER BY matter IS NULL, matter COLLATE NOCASE`,
    ).all(profileId) as { matter: string | null; state: LocalState; n: number }[];
    const byMatter = new Map<string | null, MatterCount>();
    for (const row of rows) {
      const entry = byMatter.get(row.matter) ?? { matter: row.matter, counts: emptyCounts() };
      entry.counts[row.state] = row.n;
      byMatter.set(row.matter, entry);
    }
    return [...byMatter.values()];
  }

  /** What people did to a profile's certifications (removals, retries), oldest first. */
  auditTrail(profileId: string, matter?: string): AuditEntry[] {
    return this.sql(
      `SELECT at, action, certification_id AS certificationId, matter, file_name AS fileName,
       file_path AS filePath, file_size AS fileSize, asset_hash AS assetHash, event_type AS eventType,
       state_before AS stateBefore, by_user AS byUser, on_computer AS onComputer
       FROM audit_trail WHERE profile_id = ? AND (? IS NULL OR matter = ?) ORDER BY at, id`,
    ).all(profileId, matter ?? null, matter ?? null) as AuditEntry[];
  }

  /** The row, or the error a person reads when it is gone. */
  require(id: number): CertificationRow {
    const row = this.get(id);
    if (!row) throw notFound(id);
    return row;
  }
}
