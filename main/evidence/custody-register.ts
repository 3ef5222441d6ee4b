import { stringify } from 'csv-stringify';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { exportFailed } from '../errors';
import { ENVIRONMENT_LABELS } from '../../protocol/profiles';
import type { AuditEntry, CertificationRow, HistoryEntry } from '../../protocol/views';
import { utcIso } from '../../protocol/time-format';
import type { ReceiptContext } from './receipt';
import { said } from '../../protocol/said';
import { inEnglish } from '../../protocol/locales';

/** One certification as the register shows it: the row, its timeline and where it was made. */
export interface RegisterEntry {
  row: CertificationRow;
  history: HistoryEntry[];
  environment: ReceiptContext['environment'];
}

export interface CustodySource {
  entries(): Iterable<RegisterEntry>;
  /** Removals, listed after the certifications (their own rows are gone). */
  removals: readonly AuditEntry[];
}

const HEADER = [
  'Matter',
  'File',
  'Path',
  'Size (bytes)',
  'SHA-256',
  'Event',
  'Asset type',
  'Source system',
  'Environment',
  'Certified by',
  'Computer',
  'Certified at (UTC)',
  'State',
  'Certification id',
  'Anchored at (UTC)',
  'Verification',
  'Timeline (UTC)',
];

/**
 * A cell Excel would run as a formula (=, +, -, @, or a tab or return first) is written with a
 * leading apostrophe, as OWASP advises: a file named "=HYPERLINK(…)" must stay a name.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const defused = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/**
 * The chain-of-custody register as CSV for Excel: UTF-8 with a byte-order mark (without it Excel
 * reads UTF-8 as the local code page and mangles every accented name), one line per certification
 * with its whole timeline, then one per removal. Written beside the target and renamed when
 * complete, so a half-written register never passes for a whole one.
 */
export async function writeCustodyRegister(source: CustodySource, path: string): Promise<number> {
  try {
    return await writeCsv(source, path);
  } catch (error) {
    throw exportFailed(said('exports.register'), path, error);
  }
}

async function writeCsv(source: CustodySource, path: string): Promise<number> {
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  // An unwritable place fails here, before any row is read.
  await once(out, 'open');
  const csv = stringify({ bom: true, record_delimiter: 'windows', cast: { number: String } });
  csv.pipe(out);
  const write = async (record: string[]) => {
    if (!csv.write(record.map(defused))) await new Promise((resolve) => csv.once('drain', resolve));
  };
  let count = 0;
  try {
    await write(HEADER);
    for (const entry of source.entries()) {
      await write(certificationLine(entry));
      count++;
    }
    for (const removal of source.removals) await write(removalLine(removal));
    csv.end();
    await finished(out);
    renameSync(partial, path);
  } catch (error) {
    csv.destroy();
    out.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
  return count;
}

function certificationLine({ row, history, environment }: RegisterEntry): string[] {
  return [
    row.matter ?? '',
    row.fileName,
    row.filePath,
    String(row.fileSize),
    row.assetHash,
    row.eventType,
    row.assetType,
    row.sourceSystem,
    environmentWords(environment),
    row.certifiedBy ?? '',
    row.certifiedOn ?? '',
    utcIso(row.createdAt),
    row.state,
    row.serviceId ?? '',
    row.anchoredAt === null ? '' : utcIso(row.anchoredAt),
    verificationWords(row),
    history
      .map((entry) => `${utcIso(entry.at)} ${entry.state}${entry.note ? ` (${entry.note})` : ''}`)
      .join('; '),
  ];
}

function removalLine(entry: AuditEntry): string[] {
  return [
    entry.matter ?? '',
    entry.fileName,
    entry.filePath,
    String(entry.fileSize),
    entry.assetHash,
    entry.eventType,
    '',
    '',
    '',
    entry.byUser ?? '',
    entry.onComputer ?? '',
    '',
    'removed',
    '',
    '',
    '',
    `${utcIso(entry.at)} removed by ${entry.byUser ?? 'an unrecorded user'} on ${entry.onComputer ?? 'an unnamed computer'} (it was ${entry.stateBefore}, never anchored)`,
  ];
}

function environmentWords(environment: RegisterEntry['environment']): string {
  const label = `${ENVIRONMENT_LABELS[environment.kind]}: ${environment.id}`;
  const where = environment.baseUrl ? ` (${environment.baseUrl})` : '';
  return `${label}${where}${environment.demo ? ' — DEMO, no legal weight' : ''}`;
}

function verificationWords(row: CertificationRow): string {
  if (row.state !== 'anchored') return '';
  // The register is filed and read by others: its sentences are English, like its headings.
  const said = row.verificationMessage ? inEnglish(row.verificationMessage) : '';
  if (row.verification === 'verified') return `verified: ${said}`.trim();
  if (row.verification === 'invalid') return `DID NOT VERIFY: ${said}`;
  return `not checked: ${said}`;
}
