import type Database from 'better-sqlite3';
import type { SetLines, SetResult } from '../../protocol/sets';
import { SET_VERDICTS, noVerdictsYet } from '../../protocol/sets';
import { SET_KEPT_IN_MEMORY, scratchDatabase } from './scratch';

// Lines written to disk in one transaction, and read back in one page.
const BATCH = 1000;

type Disk = {
  db: Database.Database;
  add: Database.Statement;
};

/** Problems first, in SET_VERDICTS' order. */
const rankOf = (result: SetResult) => SET_VERDICTS.indexOf(result.verdict);

/**
 * A set's report lines as they are found, read back problems first (changed, missing, unreadable,
 * not certified, renamed, not trusted, then verified): within a verdict the documents in name order,
 * and what the reference has that no document matched in the reference's order. Read again each
 * time it is iterated (the window's view, then a saved report), never copied whole.
 */
export class ReportLines implements SetLines {
  readonly counts = noVerdictsYet();
  #documents: SetResult[] = [];
  #missing: SetResult[] = [];
  #disk: Disk | null = null;
  #finished = false;
  #closed = false;

  constructor(private readonly keptInMemory = SET_KEPT_IN_MEMORY) {}

  addDocument(result: SetResult): void {
    this.#add(result, this.#documents);
  }

  addMissing(result: SetResult): void {
    this.#add(result, this.#missing);
  }

  /** Done adding: what waits is written, and the documents are put in name order. */
  finish(): void {
    if (this.#disk) {
      this.#flush(this.#disk);
      // Indexed once all are in: for 100,000 lines, 276 + 39 ms against 351 ms kept up line by line.
      this.#disk.db.exec('CREATE INDEX lines_in_order ON lines(rank, name, seq)');
    } else {
      this.#documents.sort((a, b) => rankOf(a) - rankOf(b) || (a.name < b.name ? -1 : 1));
      // Stable: the missing keep the reference's order within their verdict.
      this.#missing.sort((a, b) => rankOf(a) - rankOf(b));
    }
    this.#finished = true;
  }

  /** Frees what the lines hold (the temporary database is deleted). */
  close(): void {
    this.#disk?.db.close();
    this.#disk = null;
    this.#documents = [];
    this.#missing = [];
    this.#closed = true;
  }

  *[Symbol.iterator](): Iterator<SetResult> {
    if (!this.#finished) throw new Error('A report is read once its lines are all found.');
    // Never an empty report that looks like a saved one.
    if (this.#closed) throw new Error('This report was closed: check the set again.');
    const disk = this.#disk;
    if (!disk) {
      yield* mergedByRank(this.#documents, this.#missing);
      return;
    }
    // A page at a time, each query complete before the next: reading it twice at once (a PDF and
    // the window's view) never meets an open statement. The missing have no name (''), so within
    // their verdict they keep the reference's order.
    const lines = disk.db.prepare(
      `SELECT seq, rank, name, line FROM lines WHERE (rank, name, seq) > (?, ?, ?) ORDER BY rank, name, seq LIMIT ${BATCH}`,
    );
    type Row = { seq: number; rank: number; name: string; line: string };
    for (let after: Omit<Row, 'line'> = { rank: -1, name: '', seq: -1 }; ;) {
      const page = lines.all(after.rank, after.name, after.seq) as Row[];
      for (const row of page) yield JSON.parse(row.line) as SetResult;
      if (page.length < BATCH) break;
      after = page.at(-1) as Row;
    }
  }

  #add(result: SetResult, waiting: SetResult[]): void {
    this.counts[result.verdict]++;
    waiting.push(result);
    if (this.#disk) {
      if (waiting.length >= BATCH) this.#flush(this.#disk);
    } else if (this.#documents.length + this.#missing.length > this.keptInMemory) {
      this.#disk = openDisk();
      this.#flush(this.#disk);
    }
  }

  #flush(disk: Disk): void {
    const documents = this.#documents.splice(0);
    const missing = this.#missing.splice(0);
    disk.db.transaction(() => {
      for (const result of documents) disk.add.run(rankOf(result), result.name, JSON.stringify(result));
      for (const result of missing) disk.add.run(rankOf(result), '', JSON.stringify(result));
    })();
  }
}

/** Two lists already in rank order, as one: at equal rank, the documents before the missing. */
function* mergedByRank(documents: SetResult[], missing: SetResult[]): Generator<SetResult> {
  let m = 0;
  for (const document of documents) {
    while (m < missing.length && rankOf(missing[m] as SetResult) < rankOf(document))
      yield missing[m++] as SetResult;
    yield document;
  }
  yield* missing.slice(m);
}

/** The lines' own scratch database: each with its verdict's rank, and its name ('' for the missing). */
function openDisk(): Disk {
  const db = scratchDatabase(`
    CREATE TABLE lines (seq INTEGER PRIMARY KEY, rank INTEGER NOT NULL, name TEXT NOT NULL, line TEXT NOT NULL);
  `);
  return { db, add: db.prepare('INSERT INTO lines (rank, name, line) VALUES (?, ?, ?)') };
}
