import { eventSaid, kindSaid } from '../../protocol/vocabulary';
import { personOf } from '../../verifier/signed-facts';
import { writeExcelCsv } from '../tools/excel-csv';
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
  /** Each renewal of its evidence record (RFC 4998): when, and by which authority. */
  renewals: readonly { at: number; authority: string }[];
  environment: ReceiptContext['environment'];
  /** The watched folder it was found in, when it was. */
  watchedFolder: string | null;
  /** The certification of the file's earlier content, when it changed after it was certified. */
  follows: CertificationRow | null;
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
  'Kind of document',
  'Source system',
  'Environment',
  'Certified by',
  'Computer',
  'Certified at (UTC)',
  'State',
  'Certification id',
  'Anchored at (UTC)',
  'Verification',
  'Events',
  'Watched folder',
  'Changed after certification',
  'Event code',
  'Kind code',
];

const EVENTS_HEADER = [
  'File',
  'SHA-256',
  'Certification id',
  'When (UTC)',
  'State',
  'What happened',
  'By',
  'Computer',
];

/** "Register M-1 2026-11-25.csv" → "Register M-1 2026-11-25 events.csv", beside it. */
export const eventsFileOf = (path: string): string =>
  /\.csv$/i.test(path) ? path.replace(/(\.csv)$/i, ' events$1') : `${path} events.csv`;

/**
 * The chain-of-custody register as CSV for Excel (excel-csv.ts): one line per certification, then
 * one per removal; and beside it (eventsFileOf) one line per event of each, from queued to
 * anchored or removed, so a spreadsheet filters and sorts them rather than reading a cell.
 */
export async function writeCustodyRegister(
  source: CustodySource,
  path: string,
): Promise<{ certifications: number; eventsFile: string }> {
  const eventsFile = eventsFileOf(path);
  try {
    const certifications = await writeCsv(source, path);
    await writeExcelCsv(eventsFile, eventRecords(source));
    return { certifications, eventsFile };
  } catch (error) {
    throw exportFailed(said('exports.register'), path, error);
  }
}

async function writeCsv(source: CustodySource, path: string): Promise<number> {
  let count = 0;
  function* records(): Iterable<string[]> {
    yield HEADER;
    for (const entry of source.entries()) {
      yield certificationLine(entry);
      count++;
    }
    for (const removal of source.removals) yield removalLine(removal);
  }
  await writeExcelCsv(path, records());
  return count;
}

function* eventRecords(source: CustodySource): Iterable<string[]> {
  yield EVENTS_HEADER;
  for (const { row, history, renewals } of source.entries()) {
    // One line per event: the file, its hash and certification, then when, state, what, by whom.
    const line = (at: number, state: string, what: string, by = '', computer = '') => [
      row.fileName,
      row.assetHash,
      row.serviceId ?? '',
      utcIso(at),
      state,
      what,
      by,
      computer,
    ];
    for (const entry of history)
      yield entry.state === 'queued'
        ? line(
            entry.at,
            entry.state,
            entry.note ? inEnglish(entry.note) : '',
            row.certifiedBy ?? '',
            row.certifiedOn ?? '',
          )
        : line(entry.at, entry.state, entry.note ? inEnglish(entry.note) : '');
    for (const renewal of renewals)
      yield line(
        renewal.at,
        row.state,
        `evidence record renewed (RFC 4998): a timestamp by ${renewal.authority} covers the one before`,
      );
  }
  for (const removal of source.removals)
    yield [
      removal.fileName,
      removal.assetHash,
      '',
      utcIso(removal.at),
      'removed',
      `removed; it was ${removal.stateBefore}, never anchored`,
      removal.byUser ?? '',
      removal.onComputer ?? '',
    ];
}

function certificationLine({
  row,
  history,
  renewals,
  environment,
  watchedFolder,
  follows,
}: RegisterEntry): string[] {
  return [
    row.matter ?? '',
    row.fileName,
    row.filePath,
    String(row.fileSize),
    row.assetHash,
    inEnglish(eventSaid(row.eventType)),
    inEnglish(kindSaid(row.assetType)),
    row.sourceSystem,
    environmentWords(environment),
    certifierWords(row),
    row.certifiedOn ?? '',
    utcIso(row.createdAt),
    row.state,
    row.serviceId ?? '',
    row.anchoredAt === null ? '' : utcIso(row.anchoredAt),
    verificationWords(row),
    String(history.length + renewals.length),
    watchedFolder ?? '',
    follows ? followsWords(follows) : '',
    row.eventType,
    row.assetType,
  ];
}

/** The link from a changed file's new certification to its earlier one, as a reader can look it up. */
function followsWords(earlier: CertificationRow): string {
  const which = earlier.serviceId ? `certification ${earlier.serviceId}` : `the certification queued`;
  return `changed after ${which} of ${utcIso(earlier.createdAt)} (SHA-256 ${earlier.assetHash})`;
}

/** Who certified: the person as they wrote it, and the computer's login beside it; the login alone before. */
function certifierWords(row: CertificationRow): string {
  const person = personOf({ name: row.certifierName, firm: row.certifierFirm });
  if (!person) return row.certifiedBy ?? '';
  return row.certifiedBy ? `${person} (login ${row.certifiedBy})` : person;
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
    '1',
    '',
    '',
  ];
}

/** What the Environment column says of a sandbox's certification (read back by a set check). */
export const DEMO_IN_REGISTER = 'DEMO, no legal weight';

function environmentWords(environment: RegisterEntry['environment']): string {
  const label = `${ENVIRONMENT_LABELS[environment.kind]}: ${environment.id}`;
  const where = environment.baseUrl ? ` (${environment.baseUrl})` : '';
  return `${label}${where}${environment.demo ? ` — ${DEMO_IN_REGISTER}` : ''}`;
}

function verificationWords(row: CertificationRow): string {
  if (row.state !== 'anchored') return '';
  // The register is filed and read by others: its sentences are English, like its headings.
  const said = row.verificationMessage ? inEnglish(row.verificationMessage) : '';
  if (row.verification === 'verified') return `verified: ${said}`.trim();
  if (row.verification === 'invalid') return `DID NOT VERIFY: ${said}`;
  return `not checked: ${said}`;
}
