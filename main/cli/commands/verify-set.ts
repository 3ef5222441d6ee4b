import { resolve } from 'node:path';
import type { SetProgress, SetReport, SetResult } from '../../../protocol/sets';
import { SET_VERDICTS } from '../../../protocol/sets';
import type { EvidenceCore } from '../../core';
import { setReportJson } from '../../evidence/verification';
import type { Values } from '../arguments';
import { EXIT } from '../arguments';
import { count, err, out, printable } from '../output';
import { say, words } from '../language';
import { trustGiven } from './verify-receipt';

/**
 * `verify PATH... [--against REFERENCE] [--report FILE.csv] [--json]`: a whole set of documents
 * against a kit, our register or a load file (or this computer's certifications). Exit 0 only
 * when everything in the reference was found and verified and nothing failed; nothing checked is
 * a failure.
 */
export async function verifySetCommand(core: EvidenceCore, paths: string[], values: Values): Promise<number> {
  const against = values.against
    ? {
        path: resolve(values.against),
        pathField: values['path-field'],
        hashField: values['hash-field'],
        alsoTrusted: trustGiven(values),
      }
    : null;
  const report = await core.verification.verifySet(paths, against, progressPrinter(values));
  if (values.report) {
    await core.exports.saveSetReport(report, resolve(values.report));
    if (!values.json) err(words('sets.reportWritten', { file: printable(resolve(values.report)) }));
  }
  for (const text of values.json ? setReportJson(report) : reportText(report)) out(text);
  return report.summary.passed ? EXIT.ok : EXIT.failed;
}

function* reportText(report: SetReport): Generator<string> {
  const { summary, reference } = report;
  const counts = Object.fromEntries(SET_VERDICTS.map((verdict) => [verdict, summary.counts[verdict]]));
  yield words(`sets.against.${reference.kind}`, { source: printable(reference.source ?? '') });
  for (const problem of reference.problems)
    yield words('sets.referenceProblem', {
      where: printable(problem.where),
      why: printable(say(problem.why)),
    });
  const line = resultLine(verdictWidth());
  // One line per result, whatever a name or a note holds.
  for (const result of report.results) yield printable(line(result));
  yield words('sets.summary', { documents: count(summary.documents, 'files'), ...counts });
  yield summary.passed
    ? words('sets.passed')
    : summary.documents === 0 || summary.referenceEntries === 0
      ? words('sets.nothingChecked')
      : words('sets.failed');
}

/** The verdicts' column: as wide as the longest in the language spoken, and two spaces. */
const verdictWidth = () =>
  Math.max(...SET_VERDICTS.map((verdict) => words(`sets.verdict.${verdict}`).length)) + 2;

const resultLine =
  (width: number) =>
  (result: SetResult): string => {
    const certification = result.entry?.certification;
    const about =
      result.verdict === 'unreadable'
        ? result.note && say(result.note)
        : certification?.signedAt
          ? // The certification a line was matched to, whatever the verdict (as the app's dialog shows).
            words('sets.signed', { id: certification.id ?? '—', when: certification.signedAt })
          : result.verdict === 'verified' || result.verdict === 'renamed'
            ? words('sets.notSigned')
            : null;
    const entryName =
      result.verdict === 'renamed' || result.note ? `  (${printable(result.entry?.name ?? '')})` : '';
    const note = result.note && result.verdict !== 'unreadable' ? `; ${say(result.note)}` : '';
    return `${words(`sets.verdict.${result.verdict}`).padEnd(width)}${printable(result.name)}${entryName}${about ? `  ${about}` : ''}${note}`;
  };

/** Progress on stderr: one updating line on a terminal, a line a second otherwise. */
function progressPrinter(values: Values): ((progress: SetProgress) => void) | undefined {
  if (values.json) return undefined;
  const stream = process.stderr;
  let last = 0;
  let saidFinished = false;
  return (progress) => {
    const now = Date.now();
    const finished = !progress.listing && progress.filesDone === progress.filesTotal;
    if (finished ? saidFinished : now - last < (stream.isTTY ? 100 : 1000)) return;
    last = now;
    saidFinished = finished;
    const percent = progress.bytesTotal ? Math.floor((progress.bytesDone / progress.bytesTotal) * 100) : 100;
    const text = progress.listing
      ? words('sets.listing', { files: count(progress.filesTotal, 'files') })
      : words('sets.progress', {
          done: progress.filesDone,
          files: count(progress.filesTotal, 'files'),
          percent: `${percent}%`,
        });
    stream.write(stream.isTTY ? `\r\x1b[2K${text}${finished ? '\n' : ''}` : `${text}\n`);
  };
}
