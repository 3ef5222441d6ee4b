import { hashKeyOf } from './keys';
import { idsWithKeysBetween } from './content-keys';
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

/**
 * How a search is looked up. Few matches (a name, a hash): the rows are read by id from the names'
 * trigram index and the hashes' index, then put in order. Many: the list is read in its own order
 * and each name compared, which fills a page at once. At a million rows the first took milliseconds
 * where the second took half a second to find one name; for a word in every name, the reverse.
 */
export type SearchWay = 'by-index' | 'in-order';

/** The filter as SQL: the profile, the states, a search in names and hashes, the matter. */
export function whereOf(
  query: Omit<ListQuery, 'limit' | 'offset' | 'sort'>,
  way: SearchWay = 'in-order',
): {
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
    if (way === 'by-index') {
      const candidates = candidatesOf(query.profileId, query.search);
      where.push(`id IN (${candidates.sql})`);
      params.push(...candidates.params);
    } else {
      const hash = hashRangeOf(query.search);
      where.push(`(file_name LIKE ? ESCAPE '\\'${hash ? ' OR (asset_hash >= ? AND asset_hash < ?)' : ''})`);
      params.push(`%${escapedForLike(query.search)}%`, ...(hash ?? []));
    }
  }
  if (query.matter !== undefined) {
    where.push('matter = ?');
    params.push(query.matter);
  }
  return { where: where.join(' AND '), params };
}

/** The names' index answers for three characters or more (trigrams). */
export const searchableByIndex = (search: string): boolean => [...search].length >= 3;

/**
 * The ids whose name holds the search (any case) or whose hash starts with it, from their indexes;
 * and the names queued since the names' index last caught up (NameIndex), read one by one.
 */
export function candidatesOf(profileId: string, search: string): { sql: string; params: unknown[] } {
  // One phrase: its trigrams in a row, so the name holds the search as typed.
  const phrase = `"${search.replace(/"/g, '""')}"`;
  const byName = `SELECT rowid FROM certification_names WHERE certification_names MATCH ?
    UNION SELECT id FROM certifications WHERE id > (SELECT upto FROM names_indexed) AND file_name LIKE ? ESCAPE '\\'`;
  const names = [phrase, `%${escapedForLike(search)}%`];
  const hash = hashRangeOf(search);
  if (!hash) return { sql: byName, params: names };
  // The content keys are the hashes' first 64 bits (hashKeyOf): a prefix is a range of them.
  const prefix = hash[0];
  const wanted = idsWithKeysBetween(
    hashKeyOf(prefix.padEnd(16, '0').slice(0, 16)),
    hashKeyOf(prefix.padEnd(16, 'f').slice(0, 16)),
  );
  return {
    sql: `${byName} UNION SELECT c.id FROM (${wanted.sql}) k CROSS JOIN certifications c ON c.id = k.id
      WHERE c.profile_id = ? AND c.asset_hash >= ? AND c.asset_hash < ?`,
    params: [...names, ...wanted.params, profileId, ...hash],
  };
}

const escapedForLike = (search: string) => search.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Hashes that start with the search, as a range their index reads; none when it is not hex. */
function hashRangeOf(search: string): [string, string] | null {
  if (!/^[0-9a-f]+$/i.test(search)) return null;
  const prefix = search.toLowerCase();
  return [prefix, `${prefix}g`];
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
