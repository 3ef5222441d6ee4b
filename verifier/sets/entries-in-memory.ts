import type { Digest, KeptEntry, NameRule, ReferenceEntries, ReferenceEntry } from './reference';
import { nameKey } from './reference';

const NONE: readonly KeptEntry[] = [];
const ENTRIES_BETWEEN_TURNS = 1000;

/**
 * A reference's entries held in memory, indexed by name and by each kind of digest. The entries
 * are theirs from now on (each is given its place in the order, `at`). Every 1,000 entries the
 * event loop may take a turn (as `takeTurn` decides): indexing a reference of 100,000 in one go
 * held the thread for a tenth of a second, with no progress shown.
 */
export async function entriesInMemory(
  entries: readonly ReferenceEntry[],
  fromWindows: boolean,
  takeTurn: () => Promise<void> | undefined = () => undefined,
): Promise<ReferenceEntries> {
  const rule: NameRule = { fileNamesOnly: entries.every((entry) => !entry.name.includes('/')), fromWindows };
  // One index per kind of digest, keyed by the hex itself: 100,000 lookups build no strings.
  const byName = new Map<string, KeptEntry[]>();
  const byDigest = new Map<Digest, Map<string, KeptEntry[]>>();
  const add = (map: Map<string, KeptEntry[]>, key: string, entry: KeptEntry) => {
    const same = map.get(key);
    if (same) same.push(entry);
    else map.set(key, [entry]);
  };
  for (const [at, entry] of entries.entries()) {
    if (at % ENTRIES_BETWEEN_TURNS === ENTRIES_BETWEEN_TURNS - 1) await takeTurn();
    // Each entry is given its place, not copied with it: copying was a tenth of a check's time.
    const one = Object.assign(entry, { at });
    add(byName, nameKey(entry.name, rule), one);
    for (const digest in entry.digests) {
      let index = byDigest.get(digest as Digest);
      if (!index) byDigest.set(digest as Digest, (index = new Map()));
      add(index, entry.digests[digest as Digest] as string, one);
    }
  }
  // Most references carry one kind of digest: a document's entries of the same content are then
  // the index's own list, not a new one for each of 100,000 documents.
  const indexes = [...byDigest];
  const [only] = indexes.length === 1 ? indexes : [];
  const sameContentAs = (digests: Partial<Record<Digest, string>>): readonly KeptEntry[] => {
    if (only) {
      const hex = digests[only[0]];
      return (hex && only[1].get(hex)) || NONE;
    }
    const same: KeptEntry[] = [];
    for (const [digest, index] of indexes) {
      const hex = digests[digest];
      for (const entry of (hex && index.get(hex)) || []) if (!same.includes(entry)) same.push(entry);
    }
    return same;
  };
  return {
    size: entries.length,
    fileNamesOnly: rule.fileNamesOnly,
    candidates: (name, digests) => ({
      sameName: byName.get(nameKey(name, rule)) ?? NONE,
      sameContent: sameContentAs(digests),
    }),
    unmatched: (found) => (entries as readonly KeptEntry[]).filter((entry) => !found[entry.at]),
    close: () => undefined,
  };
}
