import type Database from 'better-sqlite3';
import { SET_KEPT_IN_MEMORY, scratchDatabase } from './scratch';

// Items moved to or from disk at once, as one row: a row per item cost 125 ms for 100,000 files.
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
    newest: Database.Statement;
    drop: Database.Statement;
  } | null = null;
  #onDisk = 0;

  constructor(
    /** How an item is kept on disk (a value JSON can write), and read back. */
    private readonly kept: { of(item: T): unknown; read(value: unknown): T },
    private readonly keptInMemory = SET_KEPT_IN_MEMORY,
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
    disk.push.run(JSON.stringify(moved.map((one) => this.kept.of(one))));
    this.#onDisk += moved.length;
  }

  pop(): T | undefined {
    if (this.#memory.length === 0 && this.#disk && this.#onDisk > 0) {
      const { seq, items } = this.#disk.newest.get() as { seq: number; items: string };
      this.#disk.drop.run(seq);
      this.#memory = (JSON.parse(items) as unknown[]).map((value) => this.kept.read(value));
      this.#onDisk -= this.#memory.length;
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
  const db = scratchDatabase('CREATE TABLE waiting (seq INTEGER PRIMARY KEY, items TEXT NOT NULL)');
  return {
    db,
    push: db.prepare('INSERT INTO waiting (items) VALUES (?)'),
    newest: db.prepare('SELECT seq, items FROM waiting ORDER BY seq DESC LIMIT 1'),
    drop: db.prepare('DELETE FROM waiting WHERE seq = ?'),
  };
}
