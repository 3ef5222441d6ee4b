import type { EvidenceCore } from '../../core';
import { isDeskError } from '../../errors';
import type { Values } from '../arguments';
import { EXIT, UsageError } from '../arguments';
import {
  count,
  describeRow,
  environmentOf,
  err,
  out,
  outJson,
  printable,
  publicRow,
  reportBlocked,
  sayIfDemo,
  sendingState,
} from '../output';
import { progressPrinter, waitWithProgress } from '../progress';
import { utcIso } from '../../../protocol/time-format';
import { inEnglish } from '../../../protocol/locales';
import { say } from '../language';

export async function certify(core: EvidenceCore, paths: string[], values: Values): Promise<number> {
  core.on('progress', progressPrinter());
  const report = await core
    .certify(
      paths,
      {
        event_type: values['event-type'],
        asset_type: values['asset-type'],
        source_system: values['source-system'] ?? 'evidence-desk',
        matter: values.matter,
      },
      { again: values.again },
    )
    .catch((error: unknown) => {
      if (isDeskError(error) && error.code === 'invalid_metadata') throw new UsageError(say(error.said));
      throw error;
    });
  for (const problem of report.problems)
    err(`skipped ${printable(problem.path)}: ${printable(say(problem.said))} [${problem.code}]`);
  for (const { path, earlier } of report.alreadyCertified)
    err(
      `already certified: ${printable(path)} (as ${printable(earlier.fileName)} on ${utcIso(earlier.createdAt)}, certification ${earlier.id}); --again certifies it once more`,
    );
  if (!values.json)
    err(
      `queued ${count(report.queued.length, 'file')}${report.alreadyCertified.length ? `; ${count(report.alreadyCertified.length, 'file')} already certified` : ''}${report.problems.length ? `; ${count(report.problems.length, 'file')} could not be certified` : ''}`,
    );
  const ids = report.queued.map((row) => row.id);
  const rows = values.wait ? await waitWithProgress(core, ids, values) : await core.sync.waitUntilSent(ids);
  const failed = rows.filter((row) => row.state === 'failed' || row.verification === 'invalid');
  if (values.json) {
    outJson({
      environment: environmentOf(core),
      certifications: rows.map(publicRow),
      problems: report.problems.map(({ path, code, said }) => ({ path, code, message: inEnglish(said) })),
      already_certified: report.alreadyCertified.map(({ path, earlier }) => ({
        path,
        certification_id: earlier.id,
        certified_at: utcIso(earlier.createdAt),
        state: earlier.state,
      })),
      sending: sendingState(core),
    });
  } else {
    for (const row of rows)
      out(`${row.assetHash.slice(0, 12)}  ${printable(row.filePath)}  ${describeRow(row)}`);
    sayIfDemo(core, values);
  }
  if (reportBlocked(core, values)) return EXIT.environment;
  return failed.length > 0 || report.problems.length > 0 ? EXIT.failed : EXIT.ok;
}
