import type { Fingerprints, SetReport, SetResult } from '../../protocol/sets';
import { SET_VERDICT_WORDS, kitSealLines, setOutcome, setSummaryIn } from '../../protocol/sets';
import { fingerprintInGroups } from '../../protocol/fingerprint-groups';
import { en } from '../../protocol/locales/en';
import { inEnglish } from '../../protocol/locales';
import type { LocalTimeOptions } from '../../protocol/time-format';
import { localAndUtc, localWithZone, utcPlain } from '../../protocol/time-format';
import { DEMO_RED, INK } from '../tools/pdf/document';
import type { DocumentTimestamper } from '../tools/pdf/seal';
import type { TableColumn } from '../tools/pdf/table';
import { codeInLines, tablePdf } from '../tools/pdf/table';

const FAILING = new Set<SetResult['verdict']>([
  'changed',
  'renamed',
  'not_certified',
  'missing',
  'unreadable',
]);

const COLUMNS: TableColumn<SetResult>[] = [
  { title: 'No.', width: 28, value: (_r, index) => String(index + 1) },
  {
    title: 'Verdict',
    width: 62,
    value: (r) => SET_VERDICT_WORDS[r.verdict],
    colour: (r) => (FAILING.has(r.verdict) ? DEMO_RED : INK),
  },
  { title: 'Document', width: 138, value: (r) => r.name },
  { title: 'SHA-256', width: 166, font: 'mono', value: (r) => (r.sha256 ?? '—').replace(/(.{32})/, '$1\n') },
  {
    title: 'In the reference',
    width: 130,
    value: (r) => (r.entry ? `${r.entry.name}\n${r.entry.where}` : '—'),
  },
  {
    title: 'Certification / signed time (UTC)',
    width: 120,
    font: 'mono',
    value: (r) => {
      const certification = r.entry?.certification;
      if (!certification) return '—';
      const signed = certification.signedAt ? utcPlain(Date.parse(certification.signedAt)) : 'no signed time';
      return `${certification.id ? codeInLines(certification.id, 22) : '—'}\n${signed}`;
    },
  },
  { title: 'Note', width: 86, value: (r) => (r.note ? inEnglish(r.note) : '') },
];

const REFERENCE_WORDS = en.cli.sets.against;

/**
 * The report of a set's verification, in the register's style: the summary first, then one line
 * per document and per missing entry. English, like every document filed by others; sealed with
 * a document timestamp when the profile names an authority.
 */
export function setReportPdf(
  report: SetReport,
  options: LocalTimeOptions & { generatedAt: Date; timestamper?: DocumentTimestamper },
): Promise<Buffer> {
  const made = localWithZone(options.generatedAt.getTime(), options);
  const { summary } = report;
  const against = REFERENCE_WORDS[report.reference.kind].replace('{{source}}', report.reference.source ?? '');
  const counts = setSummaryIn('en', summary);
  const outcome = setOutcome(summary);
  const words = en.cli.sets;
  const fingerprints = ({ logKeys, tsaRoots }: Fingerprints) => [
    ...logKeys.map((key) => `Log key: ${fingerprintInGroups(key)}`),
    ...tsaRoots.map((root) => `Timestamping authority’s root: ${fingerprintInGroups(root)}`),
  ];
  const trustedFromKit = fingerprints(report.reference.trustedFromKit);
  return tablePdf(() => report.results, {
    title: 'Verification of a set of documents',
    heading: 'Verification of a Set of Documents',
    intro: `${against}. The set: ${report.roots.join(', ')}. Made ${localAndUtc(options.generatedAt.getTime(), options)}. A certification’s time is given only where its log signed it; a register or load file is not signed.`,
    lead: [
      ...(summary.demo ? [words.demo] : []),
      ...(report.reference.seal
        ? kitSealLines('en', report.reference.seal, (iso) => localAndUtc(Date.parse(iso), options))
        : []),
      counts,
      ...(outcome === 'untrusted'
        ? []
        : [
            outcome === 'failed'
              ? words.failed.replace('see the lines above', 'see the lines below')
              : words[outcome],
          ]),
      ...(summary.counts.untrusted > 0
        ? [
            words.untrusted.replace('{{count}}', summary.counts.untrusted.toLocaleString('en')),
            ...fingerprints(report.reference.untrusted),
            'If they match, check again trusting them (evidence-desk verify … --trust-kit, or the app’s “check again, trusting this kit’s keys”).',
          ]
        : []),
      ...(trustedFromKit.length
        ? ['Checked trusting the kit’s own keys, as the person checking chose:', ...trustedFromKit]
        : []),
      ...report.reference.problems.map(
        (problem) => `In the reference, not used: ${problem.where}: ${inEnglish(problem.why)}`,
      ),
    ],
    columns: COLUMNS,
    footerText: (rows, demo, sealWords) =>
      `Verification of ${rows.toLocaleString('en')} line${rows === 1 ? '' : 's'} · made by Evidence Desk on ${made}${demo ? ' · DEMO — no legal weight' : ''} · ${sealWords}`,
    empty: 'Nothing was checked.',
    // The whole check rests on the reference: a sandbox's certifications make all of it DEMO.
    isDemo: () => summary.demo,
    generatedAt: options.generatedAt,
    timestamper: options.timestamper,
  });
}
