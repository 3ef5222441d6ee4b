import type { EvidenceCore } from '../../core';
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
import { say, words } from '../language';
import { batchMetadataSchema } from '../../../protocol/certification-request';

export async function certify(core: EvidenceCore, paths: string[], values: Values): Promise<number> {
  core.on('progress', progressPrinter());
  // The batch is checked here, at the command line's edge, as the app checks it at the IPC's.
  const batch = batchMetadataSchema.safeParse({
    event_type: values['event-type'],
    asset_type: values['asset-type'],
    // IT's policy wins over everything; then the option; then the setting.
    source_system: core.preferences.sourceSystem.byPolicy
      ? core.preferences.sourceSystem.name
      : (values['source-system'] ?? core.preferences.sourceSystem.name),
    matter: values.matter,
  });
  if (!batch.success) throw new UsageError(batch.error.issues.map((issue) => issue.message).join('; '));
  const report = await core.certify(paths, batch.data, { again: values.again });
  for (const problem of report.problems)
    err(
      words('certify.skipped', {
        path: printable(problem.path),
        reason: printable(say(problem.said)),
      }),
    );
  for (const { path, earlier } of report.alreadyCertified)
    err(
      words('certify.already', {
        path: printable(path),
        name: printable(earlier.fileName),
        when: utcIso(earlier.createdAt),
        id: earlier.id,
      }),
    );
  if (!values.json)
    err(
      words('certify.queued', { files: count(report.queued.length, 'files') }) +
        (report.alreadyCertified.length
          ? words('certify.alreadyCount', { files: count(report.alreadyCertified.length, 'files') })
          : '') +
        (report.problems.length
          ? words('certify.problemCount', {
              count: report.problems.length,
              files: count(report.problems.length, 'files'),
            })
          : ''),
    );
  const ids = report.queued;
  let rows = values.wait ? await waitWithProgress(core, ids, values) : await core.sync.waitUntilSent(ids);
  // Waiting means the batch's independent time too: a token granted as the command closed was lost.
  // The rows are read again after it, so what is printed says the time as it now stands.
  if (values.wait) {
    await core.sync.timestampsAnswered();
    rows = core.queue.rows(ids);
  }
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
