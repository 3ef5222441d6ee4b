import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { SetReport } from '../../protocol/sets';
import { said } from '../../protocol/said';
import { exportFailed } from '../errors';
import type { DocumentTimestamper } from '../tools/pdf/seal';

/**
 * Saves the report of a set's verification: CSV for Excel, or a PDF in the register's style,
 * sealed like the certificates when a timestamping authority is given (a profile names one; a
 * data folder never used has none, and the PDF says it is not sealed).
 */
export async function saveSetReport(
  report: SetReport,
  path: string,
  timestamper?: DocumentTimestamper,
): Promise<void> {
  if (extname(path).toLowerCase() !== '.pdf')
    return (await import('./set-report')).writeSetReportCsv(report, path);
  const { setReportPdf } = await import('./set-report-pdf');
  try {
    const pdf = await setReportPdf(report, { generatedAt: new Date(), timestamper });
    writeFileSync(`${path}.partial`, pdf);
    renameSync(`${path}.partial`, path);
  } catch (error) {
    rmSync(`${path}.partial`, { force: true });
    throw exportFailed(said('exports.report'), path, error);
  }
}
