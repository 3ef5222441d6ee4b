import Database from 'better-sqlite3';

/**
 * How much of a set's check is kept in memory (its reference's entries, its report's lines, the
 * files waiting to be read): a usual production of 10,000 documents, where memory is fastest.
 * Beyond it, in a scratch database, so a check of 100,000 or a million takes no more memory.
 */
export const SET_KEPT_IN_MEMORY = 10_000;

/**
 * A temporary database of its own: SQLite deletes its file when it is closed or the process ends.
 * `cacheMb`: pages kept in memory (as they fill) where SQLite's 2 MB would read them back again and again.
 */
export function scratchDatabase(schema: string, cacheMb?: number): Database.Database {
  const db = new Database('');
  // Nothing here outlives the process: no journal to survive a crash with.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  if (cacheMb) db.pragma(`cache_size = -${cacheMb * 1024}`);
  db.exec(schema);
  return db;
}
