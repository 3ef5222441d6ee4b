import type { SetResult, SetSummary, SetVerdict } from '../../protocol/sets';
import { SET_VERDICTS, noVerdictsYet } from '../../protocol/sets';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import type { Digest, Reference, ReferenceEntry } from './reference';

/** One document of the set, read: its name relative to the set's root and its digests, or why not. */
export type ReadDocument =
  | { name: string; path: string; digests: Partial<Record<Digest, string>> }
  | { name: string; path: string; unreadable: Said };

const basename = (name: string) => name.slice(name.lastIndexOf('/') + 1);
const NONE: readonly ReferenceEntry[] = [];

/**
 * Each document against the reference, by content and by name:
 * - verified: the reference has this content under this name;
 * - changed: the reference has this name with other content;
 * - renamed: the reference has this content under another name;
 * - not certified: neither.
 * Each entry of the reference no document matched is missing. The same content under two names is
 * two documents. Names compare as normalName makes them (NFC, '/'); where the reference came from
 * Windows, names that differ only in case are the same name, and the result says so. A reference
 * that names files without folders (a kit's receipts) is compared with the documents' file names.
 */
export function matchSet(documents: readonly ReadDocument[], reference: Reference): SetResult[] {
  const matcher = setMatcher(reference);
  return [...documents.map(matcher.match), ...matcher.missing()];
}

/** Documents matched one by one as they are read (see matchSet), then what no document matched. */
export interface SetMatcher {
  match(document: ReadDocument): SetResult;
  /** Each entry of the reference no document matched: nothing, against this computer's register. */
  missing(): Iterable<SetResult>;
}

export function setMatcher(reference: Reference): SetMatcher {
  const building = buildMatcher(reference);
  for (;;) {
    const step = building.next();
    if (step.done) return step.value;
  }
}

/**
 * setMatcher with a turn of the event loop (as `takeTurn` decides) every so many entries: indexing
 * a reference of 100,000 held the thread for a tenth of a second, with no progress shown.
 */
export async function setMatcherTakingTurns(
  reference: Reference,
  takeTurn: () => Promise<void> | undefined,
): Promise<SetMatcher> {
  const building = buildMatcher(reference);
  for (;;) {
    const step = building.next();
    if (step.done) return step.value;
    await takeTurn();
  }
}

const ENTRIES_BETWEEN_TURNS = 1000;

/** Indexes the reference, pausing (yield) every ENTRIES_BETWEEN_TURNS entries; returns the matcher. */
function* buildMatcher(reference: Reference): Generator<void, SetMatcher> {
  const byName = reference.entries.every((entry) => !entry.name.includes('/'));
  const nameOf = (name: string) => (byName ? basename(name) : name);
  const key = (name: string) => (reference.fromWindows ? nameOf(name).toLowerCase() : nameOf(name));
  // One index per kind of digest, keyed by the hex itself: 100,000 lookups build no strings.
  const entriesByName = new Map<string, ReferenceEntry[]>();
  const entriesByDigest = new Map<Digest, Map<string, ReferenceEntry[]>>();
  const add = (map: Map<string, ReferenceEntry[]>, k: string, entry: ReferenceEntry) => {
    const entries = map.get(k);
    if (entries) entries.push(entry);
    else map.set(k, [entry]);
  };
  for (const [at, entry] of reference.entries.entries()) {
    if (at % ENTRIES_BETWEEN_TURNS === ENTRIES_BETWEEN_TURNS - 1) yield;
    add(entriesByName, key(entry.name), entry);
    for (const digest in entry.digests) {
      let index = entriesByDigest.get(digest as Digest);
      if (!index) entriesByDigest.set(digest as Digest, (index = new Map()));
      add(index, entry.digests[digest as Digest] as string, entry);
    }
  }
  // Most references carry one kind of digest: a document's entries of the same content are then
  // the index's own list, not a new one for each of 100,000 documents.
  const indexes = [...entriesByDigest];
  const [only] = indexes.length === 1 ? indexes : [];
  const sameContentAs = (digests: Partial<Record<Digest, string>>): readonly ReferenceEntry[] => {
    if (only) {
      const hex = digests[only[0]];
      return (hex && only[1].get(hex)) || NONE;
    }
    const same: ReferenceEntry[] = [];
    for (const [digest, index] of indexes) {
      const hex = digests[digest];
      for (const entry of (hex && index.get(hex)) || []) if (!same.includes(entry)) same.push(entry);
    }
    return same;
  };
  const found = new Set<ReferenceEntry>();
  const match = (document: ReadDocument): SetResult => {
    if ('unreadable' in document)
      return {
        name: document.name,
        path: document.path,
        verdict: 'unreadable',
        sha256: null,
        entry: null,
        note: document.unreadable,
      };
    const sameContent = sameContentAs(document.digests);
    const sameName = entriesByName.get(key(document.name)) ?? NONE;
    const exact = sameName.find((entry) => sameContent.includes(entry));
    const verdict: SetVerdict = exact
      ? 'verified'
      : sameName.length
        ? 'changed'
        : sameContent.length
          ? 'renamed'
          : 'not_certified';
    const entry = exact ?? sameName[0] ?? sameContent[0] ?? null;
    // A changed document still accounts for its entry: the name is there, its content is not.
    if (entry) found.add(entry);
    const caseOnly = entry !== null && verdict !== 'renamed' && nameOf(entry.name) !== nameOf(document.name);
    return {
      name: document.name,
      path: document.path,
      verdict,
      sha256: document.digests.sha256 ?? null,
      entry: entry && { name: entry.writtenAs, where: entry.where, certification: entry.certification },
      note: caseOnly ? said('sets.caseOnly', { name: entry.writtenAs }) : null,
    };
  };
  // This computer's register holds everything ever certified here, not one production: nothing of
  // it is missing from a set.
  function* missing(): Generator<SetResult> {
    if (reference.kind === 'this-computer') return;
    for (const entry of reference.entries)
      if (!found.has(entry))
        yield {
          name: entry.name,
          path: null,
          verdict: 'missing',
          sha256: entry.digests.sha256 ?? null,
          entry: { name: entry.writtenAs, where: entry.where, certification: entry.certification },
          note: null,
        };
  }
  return { match, missing };
}

/**
 * Counts per verdict, and whether the set passes: something was checked, every document is
 * verified, nothing of the reference is missing, nothing failed, and the reference itself held.
 * Nothing checked is a failure, never a pass.
 */
export function summarise(results: readonly SetResult[], reference: Reference): SetSummary {
  const counts = noVerdictsYet();
  for (const result of results) counts[result.verdict]++;
  return summaryOf(counts, reference);
}

/** summarise, from the counts per verdict. */
export function summaryOf(counts: Record<SetVerdict, number>, reference: Reference): SetSummary {
  const documents = SET_VERDICTS.reduce((sum, verdict) => sum + counts[verdict], 0) - counts.missing;
  const passed =
    documents > 0 && counts.verified === documents && counts.missing === 0 && reference.problems.length === 0;
  return {
    counts,
    documents,
    referenceEntries: reference.entries.length,
    referenceProblems: reference.problems.length,
    passed,
  };
}
