import type Database from 'better-sqlite3';
import { SET_KEPT_IN_MEMORY, scratchDatabase } from './scratch';

// Items moved to or from disk at once.
const BATCH = 1000;

/**
 * Items waiting their turn, last in first out: in memory up to a usual production's worth, the
 * rest in a scratch database. Listing a folder of 100,000 outruns reading them; what waits is not
 * held in memory.
 */
export class ScratchStack<T> {
  #memory: T[] = [];
  #disk: {
    db: Database.Database;
    push: Database.Statement;
    page: Database.Statement;
    drop: Database.Statement;
  } | null = null;
  #onDisk = 0;

  constructor(
    private readonly keptInMemory = SET_KEPT_IN_MEMORY,
    /** How an item is written on disk, and read back: JSON unless said otherwise. */
    private readonly text: { of(item: T): string; read(text: string): T } = {
      of: (item) => JSON.stringify(item),
      read: (text) => JSON.parse(text) as T,
    },
  ) {}

  get length(): number {
    return this.#memory.length + this.#onDisk;
  }

  push(item: T): void {
    this.#memory.push(item);
    if (this.#memory.length <= this.keptInMemory) return;
    // The oldest in memory go to disk: the newest are taken first.
    const disk = (this.#disk ??= openDisk());
    const moved = this.#memory.splice(0, BATCH);
    disk.db.transaction(() => {
      for (const item of moved) disk.push.run(this.text.of(item));
    })();
    this.#onDisk += moved.length;
  }

  pop(): T | undefined {
    if (this.#memory.length === 0 && this.#disk && this.#onDisk > 0) {
      const rows = this.#disk.page.all() as { seq: number; item: string }[];
      this.#disk.drop.run((rows.at(-1) as { seq: number }).seq);
      this.#onDisk -= rows.length;
      this.#memory = rows.reverse().map((row) => this.text.read(row.item));
    }
    return this.#memory.pop();
  }

  close(): void {
    this.#disk?.db.close();
    this.#disk = null;
    this.#memory = [];
    this.#onDisk = 0;
  }
}

function openDisk() {
  const db = scratchDatabase('CREATE TABLE waiting (seq INTEGER PRIMARY KEY, item TEXT NOT NULL)');
  return {
    db,
    push: db.prepare('INSERT INTO waiting (item) VALUES (?)'),
    // The newest page, newest first: the next to be taken.
    page: db.prepare(`SELECT seq, item FROM waiting ORDER BY seq DESC LIMIT ${BATCH}`),
    drop: db.prepare('DELETE FROM waiting WHERE seq >= ?'),
  };
}
