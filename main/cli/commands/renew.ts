import { localWithZone, utcIso } from '../../../protocol/time-format';
import { readStoredSaid } from '../../../protocol/said';
import type { EvidenceCore } from '../../core';
import { byMatter } from '../../../protocol/by-matter';
import type { Values } from '../arguments';
import { EXIT } from '../arguments';
import { englishOrNull, out, outJson } from '../output';
import { peopleLocale, say, words } from '../language';

type DocumentToRenew = ReturnType<EvidenceCore['records']['hashTreeDue']>[number];

/** A record due for renewal, as the core lists it. */
type DueRecord = Awaited<ReturnType<EvidenceCore['records']['due']>>[number];

const when = (ms: number) => localWithZone(ms, { locale: peopleLocale });

/**
 * `renew [--dry-run] [--json]`: the evidence records due for renewal and why; without --dry-run,
 * one request per authority renews them all, and its answer is waited for briefly. Exit 0 when
 * nothing is left due (renewed, or nothing was), 3 when a renewal waits (offline, no authority).
 */
export async function renew(core: EvidenceCore, values: Values): Promise<number> {
  if (values['dry-run']) {
    const due = await core.records.due();
    const toStronger = core.records.hashTreeDue();
    if (values.json)
      outJson({
        due: due.map(jsonOf),
        hashTreeDue: toStronger.map(documentJson),
        nextDueAt: isoOrNull(core.records.nextDueAt()),
      });
    else {
      if (due.length || !toStronger.length) sayDue(core, due);
      if (toStronger.length) out(words('renew.hashTreeDue', { count: toStronger.length }));
    }
    return EXIT.ok;
  }
  const result = await core.renewRecords({ documentFolders: values.documents ?? [] });
  const { missing } = result.hashTree;
  const waiting = result.renewals.filter((renewal) => renewal.state !== 'confirmed');
  if (values.json) {
    outJson({
      due: result.due.map(jsonOf),
      renewals: result.renewals.map((renewal) => ({
        ...renewal,
        genTime: isoOrNull(renewal.genTime),
        problem: englishOrNull(readStoredSaid(renewal.problem)),
      })),
      withoutAuthority: result.noAuthority.map(jsonOf),
      needsStrongerAuthority: result.needsStrongerAuthority.map(jsonOf),
      hashTree: { renewing: result.hashTree.renewing, missing: missing.map(documentJson) },
      receiptRecords: result.receiptRecords,
      nextDueAt: isoOrNull(core.records.nextDueAt()),
    });
  } else {
    if (result.due.length || !(result.hashTree.renewing || result.receiptRecords)) sayDue(core, result.due);
    if (result.hashTree.renewing) out(words('renew.hashTreeRenewing', { count: result.hashTree.renewing }));
    if (result.receiptRecords) out(words('renew.receiptRecords', { count: result.receiptRecords }));
    for (const renewal of result.renewals)
      out(
        renewal.state === 'confirmed'
          ? words('renew.renewed', {
              count: renewal.records,
              documents: renewal.documents,
              authority: renewal.authority,
              when: when(renewal.genTime as number),
            })
          : words('renew.waits', {
              count: renewal.records,
              why: sayStored(renewal.problem) ?? words('renew.notAskedYet'),
            }),
      );
    if (result.noAuthority.length) out(words('renew.noAuthority', { count: result.noAuthority.length }));
    if (result.needsStrongerAuthority.length)
      out(words('renew.needsStrongerAuthority', { count: result.needsStrongerAuthority.length }));
    if (missing.length) sayMissing(missing);
  }
  return waiting.length || result.noAuthority.length || result.needsStrongerAuthority.length || missing.length
    ? EXIT.environment
    : EXIT.ok;
}

/** Documents not found again, by matter: the first few names of each, and how many more. */
function sayMissing(missing: readonly DocumentToRenew[]): void {
  out(words('renew.missing', { count: missing.length }));
  // Every matter on the command line, the first few names of each.
  for (const { matter, names, more } of byMatter(missing, { matters: Infinity, names: 5 })) {
    const listed = more ? words('renew.andMore', { names: names.join(', '), count: more }) : names.join(', ');
    out(
      matter === null
        ? words('renew.missingNoMatter', { names: listed })
        : words('renew.missingInMatter', { matter, names: listed }),
    );
  }
}

const documentJson = (document: DocumentToRenew) => ({
  certificationId: document.certificationId,
  matter: document.matter,
  fileName: document.fileName,
  path: document.filePath,
});

function sayDue(core: EvidenceCore, due: readonly DueRecord[]): void {
  if (due.length === 0) {
    const next = core.records.nextDueAt();
    out(next === null ? words('renew.noRecords') : words('renew.nothingDue', { when: when(next) }));
    return;
  }
  const documents = due.reduce((sum, record) => sum + record.documents, 0);
  out(words('renew.due', { count: due.length, documents }));
  for (const record of due)
    out(
      words(DUE_WORDS[record.why], {
        count: record.documents,
        made: when(record.newestGenTime),
        authority: record.newestAuthority,
        until: when(record.holdsUntil),
        weakness: record.weakness && weaknessWords(record.weakness),
      }),
    );
}

const DUE_WORDS = {
  expires: 'renew.dueRecord',
  retired: 'renew.dueRecordRetired',
  retiredAgain: 'renew.dueRecordRetiredAgain',
} as const;

const weaknessWords = (weakness: NonNullable<DueRecord['weakness']>) =>
  'digest' in weakness ? weakness.digest : words('renew.weakKey', weakness);

const sayStored = (stored: string | null) => {
  const saying = readStoredSaid(stored);
  return saying && say(saying);
};

const isoOrNull = (ms: number | null) => (ms === null ? null : utcIso(ms));

const jsonOf = (record: DueRecord) => ({
  ...record,
  newestGenTime: utcIso(record.newestGenTime),
  holdsUntil: utcIso(record.holdsUntil),
});
