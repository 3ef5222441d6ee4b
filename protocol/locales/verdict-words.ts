import { eventSaid, kindSaid } from '../vocabulary';
import type { TFunction } from 'i18next';
import { sayWith } from './say-with';
import type { ReceiptVerdict, SealVerdict, VerdictFacts } from '../receipt';
import type { FactLine } from '../fact-lines';
import { standingSaid } from '../fact-lines';

/*
 * A proof's verdict in a reader's language, from its codes and signed facts only: the app's Verify
 * dialog and the command line say the same. (The verifier's own sentences are English, for
 * verify.html and the receipts' readers.)
 */

/** Why a proof gave its verdict, from the verdict's codes and values: the verifier's own sentences are English. */
export function whyOf(verdict: ReceiptVerdict, t: TFunction<'app'>, when: (iso: string) => string): string {
  switch (verdict.verdict) {
    case 'verified':
      return verifiedWords(verdict.facts, t, when);
    case 'content_differs':
      return t('verify.why.content_differs', {
        sha256: verdict.certified.sha256,
        file: verdict.certified.file,
      });
    case 'receipt_invalid':
      return t(`verify.why.receipt_invalid.${verdict.check}`, {
        field: verdict.field ?? '',
        bound: verdict.bound ? t(`limits.${verdict.bound}`, { ns: 'said' }) : '',
      });
    case 'timestamp_invalid':
      return t(`verify.why.timestamp_invalid.${verdict.check}`);
    case 'untrusted_key':
      return t('verify.why.untrusted_key', { fingerprint: verdict.keyFingerprint });
    case 'untrusted_tsa':
      return t('verify.why.untrusted_tsa', {
        authority: verdict.authority,
        fingerprint: verdict.rootFingerprint,
      });
    case 'not_anchored':
      return t('verify.why.not_anchored');
  }
}

/** What a verified proof rests on, from its signed facts only. */
function verifiedWords(
  { log, time }: VerdictFacts,
  t: TFunction<'app'>,
  when: (iso: string) => string,
): string {
  const at = when;
  const parts: string[] = [];
  if (log) {
    const anchored = {
      anchoredAt: at(log.anchoredAt),
      entry: log.entry,
      size: log.treeSize,
      key: log.keyFingerprint.slice(0, 16),
    };
    parts.push(
      log.eventType && log.certifiedAt
        ? t('verify.why.verifiedLog', {
            ...anchored,
            event: sayWith(t)(eventSaid(log.eventType)),
            certifiedAt: at(log.certifiedAt),
          })
        : t('verify.why.verifiedLogV1', anchored),
    );
  }
  if (time)
    parts.push(
      t(log ? 'verify.why.timeConfirmed' : 'verify.why.timeOnly', {
        authority: time.authority,
        when: at(time.genTime),
      }),
    );
  else parts.push(t('verify.why.noTimestamp'));
  return parts.join(' ');
}

/** One fact's label and value: times by `when` (the app's local time; the command line's ISO 8601). */
export function factWords(
  line: FactLine,
  t: TFunction<'app'>,
  when: (iso: string) => string,
): [string, string] {
  const say = sayWith(t);
  return [
    t(`verify.facts.${line.key}`),
    line.time
      ? when(line.time)
      : line.codes
        ? [say(eventSaid(line.codes.event)), line.codes.kind && say(kindSaid(line.codes.kind))]
            .filter(Boolean)
            .join(' · ')
        : line.entry
          ? t('verify.facts.logEntryValue', { entry: line.entry.entry, size: line.entry.of })
          : line.by
            ? t('details.byOn', line.by)
            : line.said
              ? say(line.said)
              : line.value,
  ];
}

/** The sealing authority's standing at the seal's time, as the PDF's validation data shows it; else nothing. */
export function sealStandingWords(seal: SealVerdict | null, t: TFunction<'app'>): string {
  if (seal?.state !== 'sealed' || !seal.standing) return '';
  return t('verify.why.seal.standing', { standing: sayWith(t)(standingSaid(seal.standing)) });
}

/** A certificate PDF's seal in a reader's language; nothing for a receipt file. */
export function sealWords(
  seal: SealVerdict | null,
  t: TFunction<'app'>,
  when: (iso: string) => string,
): string {
  if (!seal) return '';
  if (seal.state === 'sealed')
    return [
      t('verify.why.seal.sealed', { authority: seal.authority, when: when(seal.genTime) }),
      sealStandingWords(seal, t),
    ]
      .filter(Boolean)
      .join(' ');
  if (seal.state === 'untrusted')
    return t('verify.why.seal.untrusted', { authority: seal.authority, fingerprint: seal.rootFingerprint });
  return t(`verify.why.seal.${seal.state}`);
}
