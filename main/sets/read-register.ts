import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import type {
  Reference,
  ReferenceCertification,
  ReferenceEntry,
  ReferenceProblem,
} from '../../verifier/sets/reference';
import { digestOf, looksLikeWindows, relativeToCommonRoot } from '../../verifier/sets/reference';
import { UnreadableReference } from './read-load-file';
import { said } from '../../protocol/said';

/** What this computer knows of a certification: the times its log signed, when its evidence holds. */
export type CertificationLookup = (
  sha256: string,
  certificationId: string | null,
) => ReferenceCertification | null;

const REQUIRED = ['Path', 'SHA-256', 'State'] as const;

/**
 * Our custody register (CSV, as `export --csv` writes it). Nothing in it is signed: a row's times
 * are the certifying computer's clock. A certification this computer also holds gets the times its
 * log signed; the others are matched on the register's word alone, and the report says so.
 */
export function readRegister(path: string, lookup: CertificationLookup): Reference {
  let table: { header: string[]; rows: string[][] };
  try {
    table = tableOf(readFileSync(path));
  } catch (error) {
    const { code, lines } = error as { code?: string; lines?: number };
    throw new UnreadableReference(
      lines ? `${path}, line ${lines}` : path,
      code === 'ENOENT'
        ? said('sets.why.doesNotExist')
        : said('sets.why.notARegister', { detail: (error as Error).message }),
    );
  }
  const { header, rows } = table;
  const missing = REQUIRED.filter((column) => !header.includes(column));
  if (rows.length && missing.length)
    throw new UnreadableReference(
      `${path}, line 1`,
      said('sets.why.noColumn', { columns: missing.join(', ') }),
    );
  const cell = (name: string) => {
    const index = header.indexOf(name);
    return (row: string[]) => row[index] ?? '';
  };
  const state = cell('State');
  const file = cell('File');
  const written = cell('Path');
  const sha256Of = cell('SHA-256');
  const idOf = cell('Certification id');
  const problems: ReferenceProblem[] = [];
  const kept: { row: string[]; line: number }[] = [];
  rows.forEach((row, index) => {
    const line = index + 2;
    if (state(row) === 'removed') return;
    if (state(row) !== 'anchored') {
      problems.push({
        where: `${path}, line ${line}`,
        why: said('sets.why.notAnchored', { name: file(row) || written(row), state: state(row) }),
      });
      return;
    }
    kept.push({ row, line });
  });
  const writtenPaths = kept.map(({ row }) => written(row));
  const names = relativeToCommonRoot(writtenPaths);
  const entries: ReferenceEntry[] = [];
  kept.forEach(({ row, line }, index) => {
    const where = `${path}, line ${line}`;
    const sha256 = digestOf(sha256Of(row));
    if (!sha256 || sha256.digest !== 'sha256') {
      problems.push({ where, why: said('sets.why.notASha256', { value: sha256Of(row) }) });
      return;
    }
    const id = idOf(row) || null;
    entries.push({
      name: names[index] as string,
      writtenAs: writtenPaths[index] as string,
      digests: { sha256: sha256.hex },
      certification: lookup(sha256.hex, id) ?? { id, signedAt: null, anchoredAt: null },
      where,
    });
  });
  return {
    kind: 'register',
    source: path,
    entries,
    fromWindows: looksLikeWindows(writtenPaths),
    problems,
    digests: [],
  };
}

/**
 * The register's header and rows. Read whole: a register of 100,000 lines is tens of MB, and
 * parsing it in one go is faster. A register as we write it is split by splitWellFormedCsv, six
 * times faster than the general parser; anything else (a quote out of place, a line of the wrong
 * width) goes to csv-parse, which also says where and why.
 */
function tableOf(bytes: Buffer): { header: string[]; rows: string[][] } {
  // Decoded without its byte-order mark: a text that starts with one is stored at two bytes a
  // character, and every search through it is slower.
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const records =
    splitWellFormedCsv(bytes.toString('utf8', bom ? 3 : 0)) ??
    (parse(bytes, { bom: true, relax_column_count: false }) as string[][]);
  const [header = [], ...rows] = records;
  return { header, rows };
}

// A field: quoted (a quote inside written twice) or plain; what follows it is checked by the caller.
const FIELD = /"((?:[^"]|"")*)"|([^,"\r\n]*)/y;

/** RFC 4180 records, all as wide as the first; null at anything else, for csv-parse to explain. */
function splitWellFormedCsv(text: string): string[][] | null {
  const records: string[][] = [];
  let record: string[] = [];
  for (let at = 0; at < text.length;) {
    FIELD.lastIndex = at;
    const [, quoted, plain] = FIELD.exec(text) as RegExpExecArray;
    record.push(quoted === undefined ? (plain as string) : quoted.replaceAll('""', '"'));
    at = FIELD.lastIndex;
    const next = text.charCodeAt(at);
    if (next === COMMA) {
      if (++at === text.length) record.push('');
      continue;
    }
    if (next === CR && text.charCodeAt(at + 1) === LF) at += 2;
    else if (next === LF) at += 1;
    else if (at < text.length) return null;
    if (record.length !== (records[0] ?? record).length) return null;
    records.push(record);
    record = [];
  }
  if (record.length && record.length !== (records[0] ?? record).length) return null;
  if (record.length) records.push(record);
  return records;
}

const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
