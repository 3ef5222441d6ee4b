import { en } from './locales/en';
import type { Language } from './locales/languages';
import { plainT } from './locales/plain';
import type { Said } from './said';
import { wordsOf } from './said';
import type { AuthorityStanding } from './receipt';
import { standingSaid } from './fact-lines';
import { fingerprintInGroups } from './fingerprint-groups';

/**
 * Verifying a whole set of documents (a production, a data room) against a reference: a kit, a
 * custody register, a load file, or this computer's register. What each shell shows and reports.
 */
// Problems first, as a reader works through them (the filters, and the lines on screen).
export const SET_VERDICTS = [
  'changed',
  'missing',
  'unreadable',
  'not_certified',
  'renamed',
  'untrusted',
  'verified',
] as const;
export type SetVerdict = (typeof SET_VERDICTS)[number];

/** A count per verdict, all at 0. */
export const noVerdictsYet = (): Record<SetVerdict, number> =>
  Object.fromEntries(SET_VERDICTS.map((verdict) => [verdict, 0])) as Record<SetVerdict, number>;

export type ReferenceKind = 'kit' | 'register' | 'load-file' | 'this-computer';

/** Fingerprints of log keys and timestamping roots, each once. */
export interface Fingerprints {
  logKeys: string[];
  tsaRoots: string[];
}

/**
 * What a kit's seal says (an ASiC-E container: one RFC 3161 token over META-INF/ASiCManifest.xml,
 * which lists every file's SHA-256). `sealed` names the files that no longer match, if any.
 */
export type KitSeal =
  | { state: 'unsealed' }
  | { state: 'broken'; why: string }
  | { state: 'untrusted'; authority: string; rootFingerprint: string }
  | {
      state: 'sealed';
      authority: string;
      genTime: string;
      files: number;
      changed: string[];
      added: string[];
      removed: string[];
      /** What the validation data beside its token (META-INF/) shows of the authority then. */
      standing?: AuthorityStanding;
    };

/** How many things the seal finds wrong: each file that no longer matches, or the seal itself. */
export function sealProblems(seal: KitSeal | undefined): number {
  if (seal?.state === 'broken') return 1;
  if (seal?.state !== 'sealed') return 0;
  return seal.changed.length + seal.added.length + seal.removed.length;
}

/** The seal in a reader's language: a sentence, then a line per file that no longer matches. */
export function kitSealLines(language: Language, seal: KitSeal, when: (iso: string) => string): string[] {
  const t = plainT(language, 'cli');
  if (seal.state === 'unsealed') return [t('sets.seal.unsealed')];
  if (seal.state === 'broken') return [t('sets.seal.broken', { why: seal.why })];
  if (seal.state === 'untrusted')
    return [
      t('sets.seal.untrusted', {
        authority: seal.authority,
        fingerprint: fingerprintInGroups(seal.rootFingerprint),
      }),
    ];
  const count = sealProblems(seal);
  const said = { authority: seal.authority, when: when(seal.genTime), files: seal.files, count };
  const words = plainT(language, 'said');
  const standing = seal.standing
    ? [t('sets.seal.standing', { standing: wordsOf(words, standingSaid(seal.standing)) })]
    : [];
  if (count === 0) return [t('sets.seal.sealed', said), ...standing];
  return [
    t('sets.seal.changed', said),
    ...seal.changed.map((file) => t('sets.seal.changedFile', { file })),
    ...seal.added.map((file) => t('sets.seal.addedFile', { file })),
    ...seal.removed.map((file) => t('sets.seal.removedFile', { file })),
    ...standing,
  ];
}

/** What a reference knows of one certification, and who vouches for it. */
export interface SetCertification {
  /** The service's certification id, when the reference names one. */
  id: string | null;
  /** When it was certified, as signed (the log's leaf or tree head); null when nobody signed a time. */
  signedAt: string | null;
  /** When it was anchored, as signed by the log; null when not signed or not known. */
  anchoredAt: string | null;
  /** Made on a sandbox, as signed (or as the register says): it carries no legal weight. */
  demo?: boolean;
  /**
   * Its signatures hold, but under a log key or timestamping root that whoever checks has not
   * trusted: their fingerprints. A document matching it is `untrusted`, never `verified`.
   */
  untrusted?: Partial<Record<'logKey' | 'tsaRoot', string>>;
}

/** One line of the result: a document of the set, or an entry of the reference no document matched. */
export interface SetResult {
  verdict: SetVerdict;
  /** Relative to the set's root (for `missing`, the reference's name for it). */
  name: string;
  /** Where the document is on this computer; null for `missing`. */
  path: string | null;
  sha256: string | null;
  /** The reference's entry it matched (by content and name, by name only for `changed`, by content for `renamed`). */
  entry: {
    name: string;
    /** Where the reference says it: a line of a register or load file, a receipt of a kit. */
    where: string;
    /** The certification, with the times its log signed; null times when nobody signed one. */
    certification: SetCertification | null;
  } | null;
  /** Why a document could not be read; for others a remark (a name that differs only in case). */
  note: Said | null;
}

export interface SetSummary {
  counts: Record<SetVerdict, number>;
  /** Documents read from the set (every result but `missing`). */
  documents: number;
  referenceEntries: number;
  /** Parts of the reference that could not be used (a receipt that does not hold, a row not anchored). */
  referenceProblems: number;
  /** Everything in the reference was found and verified, something was checked, nothing failed. */
  passed: boolean;
  /** Some certification of the reference was made on a sandbox: the whole check says DEMO. */
  demo: boolean;
}

/**
 * A report's lines: the documents in name order, then what the reference has that no document
 * matched. Read again each time they are iterated: a large set's lines are kept on disk.
 */
export interface SetLines extends Iterable<SetResult> {
  /** Frees them (a report no longer shown or saved from). */
  close(): void;
}

export interface SetReport {
  reference: {
    kind: ReferenceKind;
    source: string | null;
    problems: { where: string; why: Said }[];
    /** The keys and roots its certifications rest on that whoever checks has not trusted (see `untrusted`). */
    untrusted: Fingerprints;
    /** The keys and roots trusted because the person checking chose to trust the kit's (`--trust-kit`). */
    trustedFromKit: Fingerprints;
    /** A kit's seal, as checked; none for other references. */
    seal?: KitSeal;
  };
  roots: string[];
  results: SetLines;
  summary: SetSummary;
}

/**
 * A report as the window shows it: everything but the lines, and of the lines only the first
 * `linesPerVerdict` of each verdict and of all together, in name order. A production of 100,000
 * is not copied into the window whole; the full report stays where it is saved from.
 */
export interface SetReportView extends Omit<SetReport, 'results'> {
  results: SetResult[];
  linesPerVerdict: number;
}

/** How many lines of each verdict the window's table shows (the report holds them all). */
export const SET_LINES_SHOWN = 500;

/** The window's view of a report (see SetReportView). */
export function setReportView(report: SetReport, linesPerVerdict: number): SetReportView {
  return { ...report, results: linesShown(report.results, linesPerVerdict), linesPerVerdict };
}

/**
 * The lines a screen shows of a report, problems first (SET_VERDICTS' order, names in order within): the first `linesPerVerdict` of all together,
 * and the first of each verdict, so that every kind of failure is in view whatever the set's size.
 */
export function linesShown(lines: Iterable<SetResult>, linesPerVerdict: number): SetResult[] {
  const shown: SetResult[] = [];
  const perVerdict = new Map<SetVerdict, number>();
  for (const line of lines) {
    const count = perVerdict.get(line.verdict) ?? 0;
    perVerdict.set(line.verdict, count + 1);
    if (shown.length < linesPerVerdict || count < linesPerVerdict) shown.push(line);
  }
  // Problems first, each verdict's lines in name order (a stable sort keeps the report's order).
  const rank = (line: SetResult) => SET_VERDICTS.indexOf(line.verdict);
  return shown.sort((a, b) => rank(a) - rank(b));
}

export interface SetProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** Still listing the set: the totals may grow. */
  listing: boolean;
}

/**
 * What a set's check comes to, said the same by every shell: passed; nothing to check (no
 * documents, or a reference with nothing usable in it); only waiting on a key to be trusted; or
 * failed. Certifications under a key not trusted are said apart whenever there are any.
 */
export type SetOutcome = 'passed' | 'noDocuments' | 'emptyReference' | 'untrusted' | 'failed';

export function setOutcome(summary: SetSummary): SetOutcome {
  if (summary.passed) return 'passed';
  if (summary.documents === 0) return 'noDocuments';
  if (summary.referenceEntries === 0) return 'emptyReference';
  const { counts } = summary;
  const failures =
    summary.documents - counts.verified - counts.untrusted + counts.missing + summary.referenceProblems;
  return counts.untrusted > 0 && failures === 0 ? 'untrusted' : 'failed';
}

/** A verdict in English, for what others read without Evidence Desk (reports, verify.html). */
export const SET_VERDICT_WORDS: Record<SetVerdict, string> = en.cli.sets.verdict;

/**
 * The counts, in one sentence every shell says alike: "4 documents: 2 verified, 1 changed, …; 0 of
 * the reference missing." Certifications under a key not trusted are counted only when there are some.
 */
export function setSummaryIn(language: Language, summary: SetSummary): string {
  const t = plainT(language, 'cli');
  return t('sets.summary', {
    ...summary.counts,
    documents: t('documents', { count: summary.documents }),
    untrusted: summary.counts.untrusted ? t('sets.untrustedCount', { count: summary.counts.untrusted }) : '',
  });
}

export { plainEnglish } from './locales/plain';
