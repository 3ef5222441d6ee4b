import type { QueueDb } from './database';
import { statementCache } from './statements';

// Rows indexed per transaction: about 25 ms of work, so the app's main process never stalls on it.
const ROWS_AT_A_TIME = 1000;

/**
 * The names' trigram index (migration 20), filled after rows are queued rather than as they are:
 * indexing a name costs about 25 µs, more than queueing the row, and a dropped folder of 10,000
 * files would wait a quarter of a second more for it. Searches read the rows not indexed yet
 * (after `upto`) one by one (list-query.ts), so a name is found the moment it is queued.
 */
export class NameIndex {
  private readonly sql;

  constructor(private readonly db: QueueDb) {
    this.sql = statementCache(db);
  }

  /** The last id whose name is indexed. */
  upto(): number {
    return this.sql('SELECT upto FROM names_indexed').pluck().get() as number;
  }

  /** Indexes the next names not indexed yet; answers whether any are left. */
  catchUp(): boolean {
    return this.db
      .transaction(() => {
        const upto = this.upto();
        const last = this.sql(
          `SELECT MAX(id) FROM (SELECT id FROM certifications WHERE id > ? ORDER BY id LIMIT ${ROWS_AT_A_TIME})`,
        )
          .pluck()
          .get(upto) as number | null;
        if (last === null) return false;
        this.sql(
          `INSERT INTO certification_names (rowid, file_name)
           SELECT id, file_name FROM certifications WHERE id > ? AND id <= ?`,
        ).run(upto, last);
        this.sql('UPDATE names_indexed SET upto = ?').run(last);
        return true;
      })
      .immediate();
  }
}
