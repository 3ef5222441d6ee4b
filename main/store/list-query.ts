import type { LocalState } from '../../protocol/states';
import type { ListSort } from '../../protocol/views';

/** The list as the screens and `status --list` ask for it: which rows, in which order, which page. */
export interface ListQuery {
  profileId: string;
  states?: readonly LocalState[];
  /** Matches file names (case-insensitive, anywhere) and hashes (from the start). */
  search?: string;
  /** Exactly this matter. */
  matter?: string;
  sort?: ListSort;
  limit: number;
  offset?: number;
}

/** The filter as SQL: the profile, the states, a search in names and hashes, the matter. */
export function whereOf(query: Omit<ListQuery, 'limit' | 'offset' | 'sort'>): {
  where: string;
  params: unknown[];
} {
  const where = ['profile_id = ?'];
  const params: unknown[] = [query.profileId];
  if (query.states?.length) {
    where.push(`state IN (${query.states.map(() => '?').join(', ')})`);
    params.push(...query.states);
  }
  if (query.search) {
    where.push(`(file_name LIKE ? ESCAPE '\\' OR asset_hash LIKE ? ESCAPE '\\')`);
    const escaped = query.search.replace(/[\\%_]/g, (c) => `\\${c}`);
    params.push(`%${escaped}%`, `${escaped.toLowerCase()}%`);
  }
  if (query.matter !== undefined) {
    where.push('matter = ?');
    params.push(query.matter);
  }
  return { where: where.join(' AND '), params };
}

/** The list's order: the chosen column, then batch by batch (newest first) in path order. */
const SORT_SQL: Record<ListSort['column'], string> = {
  added: 'batch_id',
  file: 'file_name COLLATE NOCASE',
  matter: 'matter COLLATE NOCASE',
  event: 'event_type',
  state: 'state',
};

export function orderOf(sort: ListSort | undefined): string {
  const batchOrder = 'batch_id DESC, file_path, id';
  if (!sort || (sort.column === 'added' && sort.direction === 'desc')) return batchOrder;
  if (sort.column === 'added') return 'batch_id ASC, file_path, id';
  return `${SORT_SQL[sort.column]} ${sort.direction === 'asc' ? 'ASC' : 'DESC'}, ${batchOrder}`;
}
