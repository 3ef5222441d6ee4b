import type { QueueDb } from './database';
import { statementCache } from './statements';

/**
 * Recent keys merged into the large table at a time. A transaction of 1,000 rows dirtied about 900
 * pages of one index of random keys at a million rows (400 at 100,000), each written to the log and
 * checkpointed: queueing grew faster than the rows. The recent table stays small enough that a
 * transaction dirties few of its pages; a merge writes each page of the large table once, in key order.
 */
const MERGE_AT = 30_000;

/** SQL giving ids, and the parameters it reads, in that order. */
export interface IdsQuery {
  sql: string;
  params: bigint[];
}

/**
 * The ids of certifications whose content key (hashKeyOf) is one of `keys`, from both tables
 * (migration 21). An id is in one of them at a time.
 */
export function idsWithKeysIn(keys: readonly bigint[]): IdsQuery {
  const marks = keys.map(() => '?').join(', ');
  return {
    sql: `SELECT id FROM content_keys WHERE hash_key IN (${marks})
      UNION ALL SELECT id FROM recent_content_keys WHERE hash_key IN (${marks})`,
    params: [...keys, ...keys],
  };
}

/** The same for a range of keys (a hash's prefix). */
export const idsWithKeysBetween = (low: bigint, high: bigint): IdsQuery => ({
  sql: `SELECT id FROM content_keys WHERE hash_key BETWEEN ? AND ?
    UNION ALL SELECT id FROM recent_content_keys WHERE hash_key BETWEEN ? AND ?`,
  params: [low, high, low, high],
});

/** The content keys "already certified here?" reads: written with each row, merged in key order. */
export class ContentKeys {
  private readonly sql;

  constructor(db: QueueDb) {
    this.sql = statementCache(db);
  }

  /** A new row's key, within the transaction that writes the row. */
  add(hashKey: bigint, id: number | bigint): void {
    this.sql('INSERT INTO recent_content_keys (hash_key, id) VALUES (?, ?)').run(hashKey, id);
  }

  /** Within the caller's write transaction: merges the recent keys once there are enough of them. */
  mergeWhenMany(): void {
    const recent = this.sql('SELECT COUNT(*) FROM recent_content_keys').pluck().get() as number;
    if (recent < MERGE_AT) return;
    this.sql(
      'INSERT INTO content_keys (hash_key, id) SELECT hash_key, id FROM recent_content_keys ORDER BY hash_key, id',
    ).run();
    this.sql('DELETE FROM recent_content_keys').run();
  }
}
