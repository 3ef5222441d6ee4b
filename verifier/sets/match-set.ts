import type { SetResult, SetSummary, SetVerdict } from '../../protocol/sets';
import { SET_VERDICTS, noVerdictsYet, sealProblems } from '../../protocol/sets';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import type { Digest, KeptEntry, Reference } from './reference';
import { fileNameOf } from './reference';

/** One document of the set, read: its name relative to the set's root and its digests, or why not. */
export type ReadDocument =
  | { name: string; path: string; digests: Partial<Record<Digest, string>> }
  | { name: string; path: string; unreadable: Said };

/**
 * Each document against the reference, by content and by name:
 * - verified: the reference has this content under this name;
 * - untrusted: so it has, but its certification rests on a key or root not trusted by whoever checks;
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

const entryOf = (entry: KeptEntry): SetResult['entry'] => ({
  name: entry.writtenAs,
  where: entry.where,
  certification: entry.certification,
});

export function setMatcher(reference: Reference): SetMatcher {
  const { entries } = reference;
  const nameOf = (name: string) => (entries.fileNamesOnly ? fileNameOf(name) : name);
  // A byte per entry, whatever holds the entries: 100,000 cost 100 kB.
  const found = new Uint8Array(entries.size);
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
    const { sameName, sameContent } = entries.candidates(document.name, document.digests);
    const exact = sameName.find((entry) => sameContent.some((same) => same.at === entry.at));
    const verdict: SetVerdict = exact
      ? exact.certification?.untrusted
        ? 'untrusted'
        : 'verified'
      : sameName.length
        ? 'changed'
        : sameContent.length
          ? 'renamed'
          : 'not_certified';
    const entry = exact ?? sameName[0] ?? sameContent[0] ?? null;
    // A changed document still accounts for its entry: the name is there, its content is not.
    if (entry) found[entry.at] = 1;
    const caseOnly = entry !== null && verdict !== 'renamed' && nameOf(entry.name) !== nameOf(document.name);
    return {
      name: document.name,
      path: document.path,
      verdict,
      sha256: document.digests.sha256 ?? null,
      entry: entry && entryOf(entry),
      note: caseOnly ? said('sets.caseOnly', { name: entry.writtenAs }) : null,
    };
  };
  // This computer's register holds everything ever certified here, not one production: nothing of
  // it is missing from a set.
  function* missing(): Generator<SetResult> {
    if (reference.kind === 'this-computer') return;
    for (const entry of entries.unmatched(found))
      yield {
        name: entry.name,
        path: null,
        verdict: 'missing',
        sha256: entry.digests.sha256 ?? null,
        entry: entryOf(entry),
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
  // A kit changed after it was sealed, or whose seal does not hold, fails like a receipt that does not.
  const problems = reference.problems.length + sealProblems(reference.seal);
  const passed = documents > 0 && counts.verified === documents && counts.missing === 0 && problems === 0;
  return {
    counts,
    documents,
    referenceEntries: reference.entries.size,
    referenceProblems: problems,
    passed,
    demo: reference.demo,
  };
}
