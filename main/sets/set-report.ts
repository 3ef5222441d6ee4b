import { inEnglish } from '../../protocol/locales';
import type { SetReport, SetResult } from '../../protocol/sets';
import { SET_VERDICT_WORDS } from '../../protocol/sets';
import { writeExcelCsv } from '../tools/excel-csv';
import { exportFailed } from '../errors';
import { said } from '../../protocol/said';

const HEADER = [
  'Verdict',
  'Document',
  'Path',
  'SHA-256',
  'Reference name',
  'Where in the reference',
  'Certification id',
  'Certified at (UTC, signed)',
  'Anchored at (UTC, signed)',
  'Note',
  'DEMO',
  'Signed by a key not trusted (fingerprint)',
];

/** A result as the report's line: what nobody signed is left empty, never filled from a clock. */
function line(result: SetResult): string[] {
  const certification = result.entry?.certification;
  return [
    SET_VERDICT_WORDS[result.verdict],
    result.name,
    result.path ?? '',
    result.sha256 ?? '',
    result.entry?.name ?? '',
    result.entry?.where ?? '',
    certification?.id ?? '',
    certification?.signedAt ?? '',
    certification?.anchoredAt ?? '',
    result.note ? inEnglish(result.note) : '',
    certification?.demo ? 'DEMO — made on a sandbox, no legal weight' : '',
    [certification?.untrusted?.logKey, certification?.untrusted?.tsaRoot].filter(Boolean).join(' '),
  ];
}

/** The report for Excel, filed by others: English, one line per document, then per missing entry. */
export async function writeSetReportCsv(report: SetReport, path: string): Promise<void> {
  try {
    await writeExcelCsv(path, linesOf(report));
  } catch (error) {
    throw exportFailed(said('exports.report'), path, error);
  }
}

function* linesOf(report: SetReport): Generator<string[]> {
  yield HEADER;
  for (const result of report.results) yield line(result);
}

/**
 * The report for scripts (codes, and sentences in English), as the lines of its JSON: one line per
 * result, so a set of 100,000 is written as it is read, never held as one string.
 */
export function* setReportJson(report: SetReport): Generator<string> {
  const head = JSON.stringify(
    {
      reference: {
        ...report.reference,
        problems: report.reference.problems.map((problem) => ({ ...problem, why: inEnglish(problem.why) })),
      },
      roots: report.roots,
      summary: report.summary,
    },
    null,
    2,
  );
  // The head's closing brace comes after the results.
  yield `${head.slice(0, head.lastIndexOf('\n}'))},`;
  yield '  "results": [';
  let previous: string | null = null;
  for (const result of report.results) {
    if (previous !== null) yield `${previous},`;
    previous = `    ${JSON.stringify({ ...result, note: result.note ? inEnglish(result.note) : null })}`;
  }
  if (previous !== null) yield previous;
  yield '  ]';
  yield '}';
}
