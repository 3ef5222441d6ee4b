import Database from 'better-sqlite3';

/**
 * How much of a set's check is kept in memory (its reference's entries, its report's lines, the
 * files waiting to be read): a usual production of 10,000 documents, where memory is fastest.
 * Beyond it, in a scratch database, so a check of 100,000 or a million takes no more memory.
 */
export const SET_KEPT_IN_MEMORY = 10_000;

/** A temporary database of its own: SQLite deletes its file when it is closed or the process ends. */
export function scratchDatabase(schema: string): Database.Database {
  const db = new Database('');
  // Nothing here outlives the process: no journal to survive a crash with.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(schema);
  return db;
}
