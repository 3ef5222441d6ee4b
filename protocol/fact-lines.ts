import type { AuthorityStanding, ReceiptVerdict, RecordSummary } from './receipt';
import { plainEnglish as inEnglish } from './locales/plain';
import type { Said } from './said';
import { said } from './said';
import { eventSaid, kindSaid } from './vocabulary';

// A register words the same few pairs on each of its 10,000 rows: each pair is worded once.
const wordedPairs = new Map<string, string>();

/** An event and kind of document in English words, the codes kept only when not ones we name. */
export function eventAndKindInEnglish(event: string, kind: string): string {
  const key = `${event}\u0000${kind}`;
  let words = wordedPairs.get(key);
  if (words === undefined) {
    words = [inEnglish(eventSaid(event)), kind && inEnglish(kindSaid(kind))].filter(Boolean).join(' · ');
    if (wordedPairs.size < 1000) wordedPairs.set(key, words);
  }
  return words;
}

/** Which fact a line states: the key of its label in every shell (English here, i18next in the app). */
export type FactKey =
  | 'event'
  | 'sourceSystem'
  | 'certifiedAt'
  | 'anchoredAt'
  | 'logEntry'
  | 'certificationId'
  | 'keyFingerprint'
  | 'timeConfirmedAt'
  | 'timeConfirmedBy'
  | 'timeStanding'
  | 'record'
  | 'fileName'
  | 'matter'
  | 'certifiedBy'
  | 'login'
  | 'queuedAt'
  | 'seenAnchoredAt';

/**
 * One fact of a verdict. `value` is the English text; `time` (ISO 8601 UTC), `entry` and `by` carry
 * the parts a shell words in its reader's language and local time.
 */
export interface FactLine {
  key: FactKey;
  value: string;
  time?: string;
  entry?: { entry: number; of: number };
  by?: { user: string; computer: string };
  /** The event and kind of document as the service's codes: each shell says them in its reader's words. */
  codes?: { event: string; kind: string };
  /** A value said in words (the authority's standing): each shell says it in its reader's language. */
  said?: Said;
}

export const FACT_LABELS: Record<FactKey, string> = {
  event: 'Event',
  sourceSystem: 'Source system',
  certifiedAt: 'Certified at',
  anchoredAt: 'Anchored at',
  logEntry: 'Log entry',
  certificationId: 'Certification id',
  keyFingerprint: 'Log key fingerprint',
  timeConfirmedAt: 'Time confirmed at',
  timeConfirmedBy: 'Time confirmed by',
  timeStanding: 'Authority’s standing then',
  record: 'Evidence record (RFC 4998)',
  fileName: 'File name',
  matter: 'Matter',
  certifiedBy: 'Certified by',
  login: 'Computer login',
  queuedAt: 'Queued at (computer clock)',
  seenAnchoredAt: 'Seen anchored at (computer clock)',
};

/** The heading over what nobody signed, wherever a verdict is shown. */
export const STATED_HEADING = 'Stated by whoever made this receipt, not signed';

/**
 * A verdict's facts, in the one order every verifier shows them: what the log and the timestamping
 * authority signed, then apart what nobody signed. Only a `verified` verdict has facts.
 */
export function verdictFactLines(verdict: ReceiptVerdict): { signed: FactLine[]; stated: FactLine[] } {
  if (verdict.verdict !== 'verified') return { signed: [], stated: [] };
  const { log, time, stated } = verdict.facts;
  const signed: FactLine[] = [];
  if (log) {
    if (log.eventType)
      signed.push({
        key: 'event',
        value: eventAndKindInEnglish(log.eventType, log.assetType ?? ''),
        codes: { event: log.eventType, kind: log.assetType ?? '' },
      });
    if (log.sourceSystem) signed.push({ key: 'sourceSystem', value: log.sourceSystem });
    if (log.certifiedAt) signed.push({ key: 'certifiedAt', value: log.certifiedAt, time: log.certifiedAt });
    signed.push({ key: 'anchoredAt', value: log.anchoredAt, time: log.anchoredAt });
    signed.push({
      key: 'logEntry',
      value: `${log.entry} of ${log.treeSize}`,
      entry: { entry: log.entry, of: log.treeSize },
    });
    if (log.certificationId) signed.push({ key: 'certificationId', value: log.certificationId });
    signed.push({ key: 'keyFingerprint', value: log.keyFingerprint });
  }
  if (time) {
    signed.push({ key: 'timeConfirmedAt', value: time.genTime, time: time.genTime });
    signed.push({ key: 'timeConfirmedBy', value: `${time.authority} (RFC 3161)` });
    const standing = standingSaid(time.standing);
    signed.push({ key: 'timeStanding', value: inEnglish(standing), said: standing });
    if (time.record) {
      const record = recordSaid(time.record);
      signed.push({ key: 'record', value: inEnglish(record), said: record });
    }
  }
  const said: FactLine[] = [{ key: 'fileName', value: stated.fileName }];
  if (stated.matter) said.push({ key: 'matter', value: stated.matter });
  const { certifiedBy: user, computer, person } = stated;
  if (person) said.push({ key: 'certifiedBy', value: person });
  if (user || computer)
    said.push({
      // The login is a technical detail beside the person's name, or all there is of who certified.
      key: person ? 'login' : 'certifiedBy',
      value: [user, computer].filter(Boolean).join(' on '),
      ...(user && computer ? { by: { user, computer } } : {}),
    });
  if (stated.computerClock) {
    const clock = stated.computerClock;
    said.push({ key: 'queuedAt', value: clock.certifiedAt, time: clock.certifiedAt });
    if (clock.anchoredAt)
      said.push({ key: 'seenAnchoredAt', value: clock.anchoredAt, time: clock.anchoredAt });
  }
  return { signed, stated: said };
}

/** What the validation data kept with a timestamp shows of its authority at genTime, said. */
export function standingSaid(standing: AuthorityStanding): Said {
  if (!standing.shown)
    return said('standing.notShown', {
      gap: said(`standing.gap.${standing.why}`, { certificate: standing.certificate ?? '' }),
    });
  const sources = standing.sources.map((source) => source.toUpperCase()).join(', ');
  return standing.revokedLater
    ? said('standing.revokedLater', { at: standing.revokedLater, sources })
    : said('standing.good', { sources });
}

/** A moment as both languages can print it without a formatter: "2026-11-26 16:58 UTC". */
const utcMinute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** What an evidence record proves, said: renewed or not, until when, or that it needs attention. */
export function recordSaid(record: RecordSummary): Said {
  const until = utcMinute(record.holdsUntil);
  if (record.expired) return said('record.expired', { until });
  if (record.documentLinkUnchecked) return said('record.unlinked', { until });
  if (record.over === 'receipt')
    return said(record.lastRenewal ? 'record.receiptKeptRenewed' : 'record.receiptKept', {
      at: utcMinute(record.firstTime),
      authority: record.firstAuthority,
      last: record.lastRenewal ? utcMinute(record.lastRenewal.genTime) : '',
      lastAuthority: record.lastRenewal?.authority ?? '',
      until,
    });
  if (!record.lastRenewal) return said('record.notRenewed', { until });
  return said(record.renewals === 1 ? 'record.renewedOnce' : 'record.renewed', {
    count: record.renewals,
    at: utcMinute(record.lastRenewal.genTime),
    authority: record.lastRenewal.authority,
    until,
  });
}
