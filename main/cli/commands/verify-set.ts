import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Fingerprints, SetProgress, SetReport, SetResult, SetVerdict } from '../../../protocol/sets';
import { SET_VERDICTS, kitSealLines, setOutcome, setSummaryIn } from '../../../protocol/sets';
import { fingerprintInGroups } from '../../../protocol/fingerprint-groups';
import type { ReferenceChoice } from '../../sets/set-verification';
import { setReportJson } from '../../sets/set-report';
import type { Values } from '../arguments';
import { EXIT } from '../arguments';
import { count, err, out, printable } from '../output';
import { language, say, words } from '../language';
import { trustGiven } from './verify-receipt';

/** What checks a set and saves its report: the core, or (on a data folder never used) nothing but files. */
export interface SetChecker {
  verifySet(
    paths: readonly string[],
    against: ReferenceChoice | null,
    onProgress?: (progress: SetProgress) => void,
  ): Promise<SetReport>;
  saveSetReport(report: SetReport, path: string): Promise<void>;
}

/**
 * `verify PATH... [--against REFERENCE] [--report FILE.csv] [--json]`: a whole set of documents
 * against a kit, our register or a load file (or this computer's certifications). Exit 0 only
 * when everything in the reference was found and verified and nothing failed; nothing checked is
 * a failure.
 */
export async function verifySetCommand(
  checker: SetChecker,
  paths: string[],
  values: Values,
): Promise<number> {
  const against = values.against
    ? {
        path: resolve(values.against),
        pathField: values['path-field'],
        hashField: values['hash-field'],
        alsoTrusted: trustGiven(values),
        trustKit: values['trust-kit'] === true,
      }
    : null;
  const report = await checker.verifySet(paths, against, progressPrinter(values));
  if (values.report) {
    await checker.saveSetReport(report, resolve(values.report));
    if (!values.json) err(words('sets.reportWritten', { file: printable(resolve(values.report)) }));
  }
  for (const text of values.json ? setReportJson(report) : reportText(report)) out(text);
  return report.summary.passed ? EXIT.ok : EXIT.failed;
}

function* reportText(report: SetReport): Generator<string> {
  const { summary, reference } = report;
  yield words(`sets.against.${reference.kind}`, { source: printable(reference.source ?? '') });
  // The exact time signed, as the lines below give theirs.
  if (reference.seal)
    for (const line of kitSealLines(language, reference.seal, (iso) => iso)) yield printable(line);
  if (hasAny(reference.trustedFromKit)) {
    yield words('sets.trustedFromKit');
    yield* fingerprintLines(reference.trustedFromKit);
  }
  for (const problem of reference.problems)
    yield words('sets.referenceProblem', {
      where: printable(problem.where),
      why: printable(say(problem.why)),
    });
  const line = resultLine(verdictWidth(SET_VERDICTS.filter((verdict) => summary.counts[verdict] > 0)));
  // One line per result, whatever a name or a note holds.
  for (const result of report.results) yield printable(line(result));
  yield setSummaryIn(language, summary);
  if (summary.demo) yield words('sets.demo');
  const outcome = setOutcome(summary);
  if (outcome !== 'untrusted') yield words(`sets.${outcome}`);
  if (summary.counts.untrusted > 0) {
    yield words('sets.untrusted', { count: summary.counts.untrusted });
    yield* fingerprintLines(reference.untrusted);
    yield words('sets.untrustedNext', { options: trustOptions(reference.source) });
  }
}

const hasAny = (fingerprints: Fingerprints) => fingerprints.logKeys.length + fingerprints.tsaRoots.length > 0;

function* fingerprintLines({ logKeys, tsaRoots }: Fingerprints): Generator<string> {
  for (const key of logKeys) yield words('sets.logKey', { fingerprint: fingerprintInGroups(key) });
  for (const root of tsaRoots) yield words('sets.tsaRoot', { fingerprint: fingerprintInGroups(root) });
}

/** The options that trust a kit's keys: --trust-kit, or (a kit folder) its own key files by name. */
function trustOptions(kit: string | null): string {
  const files =
    kit && isFolder(kit)
      ? [
          ['--log-key', 'log-key.pem'],
          ['--tsa-root', 'tsa-root.pem'],
        ].filter(([, file]) => existsSync(join(kit, file as string)))
      : [];
  const explicit = files.map(
    ([option, file]) => `${option} ${printable(join(kit as string, file as string))}`,
  );
  return explicit.length ? `--trust-kit (${words('or')} ${explicit.join(' ')})` : '--trust-kit';
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The verdicts' column: as wide as the longest of those in the report, in the language spoken, and two spaces. */
const verdictWidth = (present: readonly SetVerdict[]) =>
  Math.max(0, ...present.map((verdict) => words(`sets.verdict.${verdict}`).length)) + 2;

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
