import type Database from 'better-sqlite3';
import { entriesInMemory } from '../../verifier/sets/entries-in-memory';
import type { Digest, KeptEntry, ReferenceEntries, ReferenceEntry } from '../../verifier/sets/reference';
import { fileNameOf } from '../../verifier/sets/reference';
import { SET_KEPT_IN_MEMORY, scratchDatabase } from './scratch';

const DIGESTS = ['sha256', 'md5', 'sha1'] as const satisfies readonly Digest[];
// Entries written in one transaction, and read back in one page.
const BATCH = 1000;
// Each document is looked up by name (and by digest where its content is not there), anywhere in
// the indexes: with SQLite's 2 MB of pages, a check of a million read them back from the file for
// most documents (12.5 times the time of 100,000; 10 times with these).
const LOOKUP_CACHE_MB = 64;

/** How the names are compared, known once every entry is read. */
export interface NamesRead {
  /** Names differing only in case are the same: the reference was made on Windows. */
  fromWindows: boolean;
  /** How many characters of every name are a folder they all share (cut off for the name in the set). */
  sharedFolder?: number;
}

type Row = {
  at: number;
  name: string;
  sha256: string | null;
  md5: string | null;
  sha1: string | null;
  rest: string;
};

/**
 * A reference's entries as a reader finds them: in memory up to a usual production, beyond it in a
 * scratch database indexed by name and digest, so a reference of 100,000 takes no more memory than
 * one of 10,000. `seal` hands them to the matcher, once all are read.
 */
export class EntriesBuilder {
  #memory: ReferenceEntry[] = [];
  #disk: { db: Database.Database; insert: Database.Statement } | null = null;
  #size = 0;
  #first: string | null = null;
  // Where the last '/' of any name is: a reference whose names (after their shared folder) have
  // none names files, not paths.
  #lastFolderEnd = -1;
  #present = new Set<Digest>();

  constructor(readonly keptInMemory = SET_KEPT_IN_MEMORY) {}

  /** An entry, its name as compared (with the folder all share still on it). */
  add(entry: ReferenceEntry): void {
    this.#size++;
    this.#first ??= entry.name;
    this.#lastFolderEnd = Math.max(this.#lastFolderEnd, entry.name.lastIndexOf('/'));
    for (const digest in entry.digests) this.#present.add(digest as Digest);
    this.#memory.push(entry);
    if (this.#disk) {
      if (this.#memory.length >= BATCH) this.#flush(this.#disk);
    } else if (this.#memory.length > this.keptInMemory) {
      const db = scratchDatabase(
        `
        CREATE TABLE entries (
          at INTEGER PRIMARY KEY, name TEXT NOT NULL, lower TEXT NOT NULL,
          sha256 TEXT, md5 TEXT, sha1 TEXT, rest TEXT NOT NULL
        );
      `,
        LOOKUP_CACHE_MB,
      );
      this.#disk = {
        db,
        insert: db.prepare(
          'INSERT INTO entries (at, name, lower, sha256, md5, sha1, rest) VALUES (?, ?, ?, ?, ?, ?, ?)',
        ),
      };
      this.#flush(this.#disk);
    }
  }

  /** Every entry read: indexed for the matcher (in memory with turns of the event loop). */
  async seal(names: NamesRead, takeTurn: () => Promise<void> | undefined): Promise<ReferenceEntries> {
    const cut = names.sharedFolder ?? 0;
    if (!this.#disk) {
      const entries = this.#memory;
      // Cut in place: these entries are the builder's own.
      if (cut) for (const entry of entries) entry.name = entry.name.slice(cut);
      this.#memory = [];
      return entriesInMemory(entries, names.fromWindows, takeTurn);
    }
    this.#flush(this.#disk);
    return entriesOnDisk(this.#disk.db, {
      size: this.#size,
      fromWindows: names.fromWindows,
      fileNamesOnly: this.#lastFolderEnd < cut,
      shared: (this.#first ?? '').slice(0, cut),
      digests: DIGESTS.filter((digest) => this.#present.has(digest)),
    });
  }

  /** Frees the entries of a reference not sealed (one that failed to read). */
  close(): void {
    this.#disk?.db.close();
    this.#memory = [];
  }

  #flush({ db, insert }: { db: Database.Database; insert: Database.Statement }): void {
    const entries = this.#memory.splice(0);
    const first = this.#size - entries.length;
    db.transaction(() => {
      for (const [offset, { name, digests, writtenAs, certification, where }] of entries.entries())
        insert.run(
          first + offset,
          name,
          name.toLowerCase(),
          digests.sha256 ?? null,
          digests.md5 ?? null,
          digests.sha1 ?? null,
          JSON.stringify({ writtenAs, certification, where }),
        );
    })();
  }
}

const sameDigest = (entry: KeptEntry, digests: Partial<Record<Digest, string>>, digest: Digest): boolean =>
  entry.digests[digest] !== undefined && entry.digests[digest] === digests[digest];

/** The entries in their scratch database: each document's candidates by name, then by digest. */
function entriesOnDisk(
  db: Database.Database,
  how: { size: number; fromWindows: boolean; fileNamesOnly: boolean; shared: string; digests: Digest[] },
): ReferenceEntries {
  // Names are kept whole (the shared folder is only known at the end): a document's name is looked
  // up with that folder before it, in lower case where the reference came from Windows.
  const nameColumn = how.fromWindows ? 'lower' : 'name';
  db.exec(`CREATE INDEX by_name ON entries(${nameColumn})`);
  const columns = 'at, name, sha256, md5, sha1, rest';
  const named = db.prepare(`SELECT ${columns} FROM entries WHERE ${nameColumn} = ?`);
  // Only the places of the same content (each digest's index holds them): the entry is often the
  // one of the same name, already read. Reading its row again, at random in a scratch database of
  // a million, was an eighth of the lookups' time (16.1 against 14.3 s). Indexed when first asked:
  // a set whose documents are all where the reference has them never asks (a million digests took
  // 3 s to index).
  let sameContentAt: (readonly [Digest, Database.Statement])[] | undefined;
  const placesOfContent = () =>
    (sameContentAt ??= how.digests.map((digest) => {
      db.exec(`CREATE INDEX by_${digest} ON entries(${digest})`);
      return [digest, db.prepare(`SELECT at FROM entries WHERE ${digest} = ?`).pluck()] as const;
    }));
  const atPlace = db.prepare(`SELECT ${columns} FROM entries WHERE at = ?`);
  const between = db.prepare(`SELECT ${columns} FROM entries WHERE at BETWEEN ? AND ? ORDER BY at`);
  const cut = how.shared.length;
  const kept = (row: Row): KeptEntry => {
    const rest = JSON.parse(row.rest) as Pick<ReferenceEntry, 'writtenAs' | 'certification' | 'where'>;
    const digests: ReferenceEntry['digests'] = {};
    for (const digest of DIGESTS) if (row[digest] !== null) digests[digest] = row[digest];
    return { at: row.at, name: row.name.slice(cut), digests, ...rest };
  };
  return {
    size: how.size,
    fileNamesOnly: how.fileNamesOnly,
    candidates(name, digests) {
      const whole = how.shared + (how.fileNamesOnly ? fileNameOf(name) : name);
      const sameName = (named.all(how.fromWindows ? whole.toLowerCase() : whole) as Row[]).map(kept);
      // Most documents are where the reference has them, with the same content: those entries
      // decide the verdict, and the content's other places (a read at random in each digest's
      // index, most of the lookups' time at a million) are not looked for.
      const here = sameName.filter((entry) =>
        how.digests.some((digest) => sameDigest(entry, digests, digest)),
      );
      if (here.length) return { sameName, sameContent: here };
      const namedAt = new Map(sameName.map((entry) => [entry.at, entry]));
      const sameContent: KeptEntry[] = [];
      // An entry with two of the document's digests is one entry of the same content.
      const seen = new Set<number>();
      for (const [digest, places] of placesOfContent()) {
        const hex = digests[digest];
        if (!hex) continue;
        for (const at of places.all(hex) as number[]) {
          if (seen.has(at)) continue;
          seen.add(at);
          sameContent.push(namedAt.get(at) ?? kept(atPlace.get(at) as Row));
        }
      }
      return { sameName, sameContent };
    },
    // Only the rows no document matched are read: after a check that passed, none (reading all of
    // a million to skip them took 3 s of the check's 55).
    *unmatched(found) {
      for (let at = 0; at < how.size; at++) {
        if (found[at]) continue;
        let last = at;
        while (last + 1 < how.size && !found[last + 1] && last + 1 - at < BATCH) last++;
        for (const row of between.all(at, last) as Row[]) yield kept(row);
        at = last;
      }
    },
    close: () => db.close(),
  };
}
