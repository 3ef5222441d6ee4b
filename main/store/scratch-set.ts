import type Database from 'better-sqlite3';
import { SET_KEPT_IN_MEMORY, scratchDatabase } from './scratch';

// Values added in one transaction: one at a time, each add wrote its pages to the file, and a
// kit of a million spent a quarter of its time naming its receipts (42 times the time of 100,000).
const ADDS_PER_COMMIT = 10_000;

/**
 * A set of strings: in memory up to a usual production's worth, past it in a scratch database, so
 * the names of a kit of a million take no more memory than those of 10,000.
 */
export class ScratchSet {
  #memory: Set<string> | null = new Set();
  #disk: { db: Database.Database; add: Database.Statement<[string]> } | null = null;
  #addedOnDisk = 0;

  constructor(private readonly keptInMemory = SET_KEPT_IN_MEMORY) {}

  /** Adds `value`: true if it was not there before. */
  add(value: string): boolean {
    if (this.#memory && this.#memory.size < this.keptInMemory) {
      if (this.#memory.has(value)) return false;
      this.#memory.add(value);
      return true;
    }
    const { db, add } = this.onDisk();
    if (this.#addedOnDisk++ % ADDS_PER_COMMIT === 0) {
      if (db.inTransaction) db.exec('COMMIT');
      db.exec('BEGIN');
    }
    return add.run(value).changes === 1;
  }

  /** Lets the scratch database go (what it held is not kept); the set is not used after. */
  close(): void {
    this.#disk?.db.close();
  }

  private onDisk(): { db: Database.Database; add: Database.Statement<[string]> } {
    if (this.#disk) return this.#disk;
    const db = scratchDatabase('CREATE TABLE kept (value TEXT PRIMARY KEY) WITHOUT ROWID');
    const add = db.prepare<[string]>('INSERT OR IGNORE INTO kept (value) VALUES (?)');
    const memory = this.#memory ?? new Set<string>();
    db.transaction(() => {
      for (const value of memory) add.run(value);
    })();
    this.#memory = null;
    return (this.#disk = { db, add });
  }
}
