import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { SetOutcome, SetResult, SetSummary } from '../../protocol/sets';
import type { Language } from '../../protocol/locales/languages';
import { plainSay, plainT } from '../../protocol/locales/plain';
import { PAGE_WORDS, filled } from './page-words';
import {
  SET_LINES_SHOWN,
  SET_VERDICT_WORDS,
  linesShown,
  setOutcome,
  kitSealLines,
  setSummaryIn,
} from '../../protocol/sets';
import { KitSealReader } from '../sets/kit-seal';
import { localWithZone } from '../../protocol/time-format';
import { matchSet, summarise } from '../sets/match-set';
import type { ReadDocument } from '../sets/match-set';
import type { Reference, ReferenceEntry } from '../sets/reference';
import { entriesInMemory } from '../sets/entries-in-memory';
import { normalName } from '../sets/reference';
import type { Trust } from '../verify-receipt';
import { kitReader } from '../sets/kit-receipt';
import { LIMITS } from '../../protocol/limits';

/**
 * verify.html's check of a whole production: the documents of a folder against the receipts of an
 * evidence kit's folder, with the same matching as Evidence Desk's, in this browser only.
 */
const CHUNK = 8 * 1024 * 1024;
const RECEIPT = /(^|\/)certifications\/[^/]+\.receipt\.json$/;

/** A chosen file and its path in the folder chosen (kept apart: a worker's copy of a File loses it). */
export interface ChosenFile {
  file: File;
  path: string;
}

export const chosenFile = (file: File): ChosenFile => ({
  file,
  path: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name,
});

/**
 * The kit's receipts that hold, as a reference; each that does not is reported on its own. Every
 * file of the kit is hashed for its seal.
 */
async function kitReference(files: ChosenFile[], trust: Trust): Promise<Reference> {
  const entries: ReferenceEntry[] = [];
  // The kit's keys are in `trust` only when the person ticked "They match" (docs/evidence.md).
  const kit = kitReader(trust, { trustKit: false }, (entry) => entries.push(entry));
  const seal = new KitSealReader();
  for (const { file, path: where } of files) {
    // The folder chosen is the kit: its own name is not part of the paths its seal lists.
    const inKit = where.split('/').slice(1).join('/') || file.name;
    if (RECEIPT.test(where) || KitSealReader.wantsBytes(inKit)) {
      // A file larger than its bound is refused by its size, unread (docs/security.md).
      const bound = RECEIPT.test(where) ? LIMITS.receiptBytes : LIMITS.kitSealPartBytes;
      const bytes = new Uint8Array(await file.slice(0, bound + 1).arrayBuffer());
      seal.file(inKit, file.size > bound ? await sha256Of(file, () => {}) : bytesToHex(sha256(bytes)));
      if (KitSealReader.wantsBytes(inKit)) seal.part(inKit, bytes);
      if (RECEIPT.test(where)) await kit.take({ where, bytes });
    } else seal.file(inKit, await sha256Of(file, () => {}));
  }
  return {
    kind: 'kit',
    source: null,
    entries: await entriesInMemory(entries, false),
    digests: [],
    ...kit.finish(),
    seal: await seal.check(trust, { trustKit: false }),
  };
}

async function sha256Of(file: File, onBytes: (bytes: number) => void): Promise<string> {
  const hash = sha256.create();
  for (let offset = 0; offset < file.size; offset += CHUNK) {
    const chunk = new Uint8Array(await file.slice(offset, offset + CHUNK).arrayBuffer());
    hash.update(chunk);
    onBytes(chunk.length);
  }
  return bytesToHex(hash.digest());
}

export interface SetCheckView {
  progress(fraction: number): void;
  /** The verdict; `seal`: what the kit's seal says, a line each (the files that no longer match it). */
  result(
    kind: 'verified' | 'failed' | 'warning',
    headline: string,
    text: string,
    demo: boolean,
    seal: string[],
  ): void;
  /** The lines shown (the first of each verdict), and how many the report has. */
  lines(shown: SetResult[], total: number, counts: SetSummary['counts']): void;
}

export async function checkProduction(
  documents: ChosenFile[],
  kit: ChosenFile[],
  trust: Trust,
  language: Language,
  view: SetCheckView,
): Promise<void> {
  const w = PAGE_WORDS[language];
  const reference = await kitReference(kit, trust);
  // A kit saved inside the production is the reference, not documents of it.
  const kitFolder = kit[0]?.path.split('/')[0];
  const inside = (chosen: ChosenFile) =>
    chosen.path
      .split('/')
      .slice(1)
      .includes(kitFolder ?? '');
  const chosen = documents.filter((file) => !inside(file));
  const total = chosen.reduce((sum, { file }) => sum + file.size, 0) || 1;
  let done = 0;
  const read: ReadDocument[] = [];
  for (const { file, path } of chosen) {
    // Names relative to the folder chosen: its own name is not part of them.
    const name = normalName(path.split('/').slice(1).join('/') || file.name);
    try {
      const digest = await sha256Of(file, (bytes) => view.progress((done += bytes) / total));
      read.push({ name, path: name, digests: { sha256: digest } });
    } catch {
      read.push({
        name,
        path: name,
        unreadable: { key: 'asWritten', values: { text: w.unreadable } },
      });
    }
  }
  const results = matchSet(
    read.sort((a, b) => (a.name < b.name ? -1 : 1)),
    reference,
  );
  const summary = summarise(results, reference);
  const outcome = setOutcome(summary);
  const untrusted = summary.counts.untrusted
    ? ` ${filled(w.untrustedInSet, { count: summary.counts.untrusted.toLocaleString(language) })}`
    : '';
  const say = plainSay(language);
  const problems = reference.problems.map(
    (problem) => ` ${filled(w.notUsedFromKit, { where: problem.where, why: say(problem.why) })}`,
  );
  const when = (iso: string) => `${localWithZone(Date.parse(iso), { locale: language })} — ${iso}`;
  const seal = reference.seal ? kitSealLines(language, reference.seal, when).map((line) => line.trim()) : [];
  const text = `${setSummaryIn(language, summary)}${untrusted}${problems.join('')}`;
  view.result(
    outcome === 'passed' ? 'verified' : outcome === 'untrusted' ? 'warning' : 'failed',
    language === 'en' ? SET_HEADLINES[outcome] : plainT(language, 'app')(APP_HEADLINES[outcome]),
    text,
    summary.demo,
    seal,
  );
  // A production of 100,000 is not 100,000 rows: the counts above are for all of them.
  view.lines(linesShown(results, SET_LINES_SHOWN), results.length, summary.counts);
}

export const verdictWords = (result: SetResult) => SET_VERDICT_WORDS[result.verdict];

const APP_HEADLINES: Record<SetOutcome, string> = {
  passed: 'verifySet.passed',
  noDocuments: 'verifySet.noDocuments',
  emptyReference: 'verifySet.emptyReference',
  untrusted: 'verifySet.untrustedHeadline',
  failed: 'verifySet.notPassed',
};

const SET_HEADLINES: Record<SetOutcome, string> = {
  passed: 'Passed: every certification of the kit was found, and every document verified',
  noDocuments: 'Not passed: no documents were found to check',
  emptyReference: 'Not passed: the kit holds no certification that could be used',
  untrusted: 'Not passed yet: certified, but signed by a key you have not trusted',
  failed: 'Not passed: see the lines below',
};
