import { inEnglish } from '../../protocol/locales';
import type { SetReport, SetResult } from '../../protocol/sets';
import { SET_VERDICT_WORDS } from '../../protocol/sets';
import { writeExcelCsv } from '../evidence/excel-csv';
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

/** The report for scripts: codes, and sentences in English. */
export const setReportJson = (report: SetReport) => ({
  ...report,
  reference: {
    ...report.reference,
    problems: report.reference.problems.map((problem) => ({ ...problem, why: inEnglish(problem.why) })),
  },
  results: Array.from(report.results, (result) => ({
    ...result,
    note: result.note ? inEnglish(result.note) : null,
  })),
});
