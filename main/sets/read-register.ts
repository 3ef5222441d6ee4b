import { stateSaid } from '../../protocol/states';
import { parse } from 'csv-parse/sync';
import { readFileSync, statSync } from 'node:fs';
import { LimitExceeded } from '../../protocol/limits';
import { passedBound } from '../../verifier/sets/kit-receipt';
import type { CsvRecord, CsvSeparator } from './csv-records';
import { NotWellFormed, csvRecords, headOf, textOf } from './csv-records';
import type { Reference, ReferenceCertification, ReferenceProblem } from '../../verifier/sets/reference';
import { EntriesBuilder } from '../store';
import { commonRoot, digestOf, looksLikeWindows, unsigned } from '../../verifier/sets/reference';
import { DEMO_IN_REGISTER } from '../evidence/custody-register';
import { UnreadableReference } from './read-load-file';
import { readerTurns } from '../tools/event-loop-turns';
import { said } from '../../protocol/said';
import { undefused } from '../tools/excel-csv';

/** What this computer knows of a certification: the times its log signed, when its evidence holds. */
export type CertificationLookup = (
  sha256: string,
  certificationId: string | null,
) => ReferenceCertification | null;

const REQUIRED = ['Path', 'SHA-256', 'State'] as const;
// csv-parse holds the whole file and every cell: 8 MiB is about 150 MB of it at most.
const GENERAL_PARSER_MOST = 8 * 1024 * 1024;

/**
 * Our custody register (CSV, as `export --csv` writes it). Nothing in it is signed: a row's times
 * are the certifying computer's clock. A certification this computer also holds gets the times its
 * log signed; the others are matched on the register's word alone, and the report says so.
 */
export async function readRegister(
  path: string,
  /** This computer's lookup of the register's contents, asked for as its lines are read. */
  lookupHere: (sha256s: readonly string[]) => Promise<CertificationLookup>,
  newEntries: () => EntriesBuilder = () => new EntriesBuilder(),
): Promise<Reference> {
  try {
    const separator = separatorOf(path);
    try {
      return await referenceOf(path, csvRecords(path, { separator }), lookupHere, newEntries());
    } catch (error) {
      if (!(error instanceof NotWellFormed)) throw error;
    }
    // Not as we write it: the general parser reads what it can, and says where and why it cannot.
    // It holds the whole file, so only a file of a size it can hold.
    if (statSync(path).size > GENERAL_PARSER_MOST) throw new NotWellFormed('not as Evidence Desk writes it');
    return await referenceOf(path, parsedRecords(readFileSync(path), separator), lookupHere, newEntries());
  } catch (error) {
    if (error instanceof UnreadableReference) throw error;
    if (error instanceof LimitExceeded) throw new UnreadableReference(path, passedBound(error.bound));
    const { code, lines } = error as { code?: string; lines?: number };
    throw new UnreadableReference(
      lines ? `${path}, line ${lines}` : path,
      code === 'ENOENT'
        ? said('sets.why.doesNotExist')
        : said('sets.why.notARegister', { detail: (error as Error).message }),
    );
  }
}

type KeptLine = {
  name: string;
  written: string;
  sha256: { text: string; read: ReturnType<typeof digestOf> };
  id: string;
  line: number;
  demo: boolean;
};

async function referenceOf(
  path: string,
  records: Iterable<CsvRecord>,
  lookupHere: (sha256s: readonly string[]) => Promise<CertificationLookup>,
  entries: EntriesBuilder,
): Promise<Reference> {
  const takeTurn = readerTurns();
  const problems: ReferenceProblem[] = [];
  let anyDemo = false;
  // Lines wait for this computer's lookup of their contents, a production's worth at a time: a
  // register of 100,000 is not held whole.
  const kept: KeptLine[] = [];
  const enter = async () => {
    const sha256s = kept.flatMap(({ sha256 }) => (sha256.read?.digest === 'sha256' ? [sha256.read.hex] : []));
    const lookup = sha256s.length ? await lookupHere(sha256s) : () => null;
    for (const { name, written, sha256: cellOf, id, line, demo } of kept.splice(0)) {
      const turn = takeTurn();
      if (turn) await turn;
      const where = `${path}, line ${line}`;
      const sha256 = cellOf.read;
      if (!sha256 || sha256.digest !== 'sha256') {
        problems.push({ where, why: said('sets.why.notASha256', { value: cellOf.text }) });
        continue;
      }
      const certification = lookup(sha256.hex, id || null) ?? {
        id: id || null,
        signedAt: null,
        anchoredAt: null,
      };
      // The register's word can add DEMO, never take it away.
      if (demo) certification.demo = true;
      anyDemo ||= certification.demo === true;
      entries.add({ name, writtenAs: written, digests: { sha256: sha256.hex }, certification, where });
    }
  };
  const root = commonRoot();
  let fromWindows = false;
  let at: Record<'state' | 'file' | 'path' | 'sha256' | 'id' | 'environment', number> | undefined;
  let missing: string[] = [];
  try {
    for (const record of records) {
      const turn = takeTurn();
      if (turn) await turn;
      if (!at) {
        const header = Array.from({ length: record.width }, (_, column) => record.cell(column));
        missing = REQUIRED.filter((name) => !header.includes(name));
        at = {
          state: header.indexOf('State'),
          file: header.indexOf('File'),
          path: header.indexOf('Path'),
          sha256: header.indexOf('SHA-256'),
          id: header.indexOf('Certification id'),
          environment: header.indexOf('Environment'),
        };
        continue;
      }
      if (missing.length)
        throw new UnreadableReference(
          `${path}, line 1`,
          said('sets.why.noColumn', { columns: missing.join(', ') }),
        );
      // Only the cells used are decoded: a register line has nineteen.
      const state = cellOf(record, at.state);
      if (state === 'removed') continue;
      const line = record.number;
      if (state !== 'anchored') {
        problems.push({
          where: `${path}, line ${line}`,
          why: said('sets.why.notAnchored', {
            name: cellOf(record, at.file) || cellOf(record, at.path),
            // The register's own word for it, said as the reader says a state.
            state: stateSaid(state),
          }),
        });
        continue;
      }
      const written = undefused(cellOf(record, at.path));
      const sha256 = cellOf(record, at.sha256);
      fromWindows ||= looksLikeWindows(written);
      kept.push({
        name: root.add(written),
        written,
        sha256: { text: sha256, read: digestOf(sha256) },
        id: cellOf(record, at.id),
        line,
        demo: at.environment >= 0 && cellOf(record, at.environment).includes(DEMO_IN_REGISTER),
      });
      if (kept.length >= Math.max(1, entries.keptInMemory)) await enter();
    }
    await enter();
    return {
      kind: 'register',
      source: path,
      entries: await entries.seal({ fromWindows, sharedFolder: root.length() }, takeTurn),
      problems,
      digests: [],
      ...unsigned(anyDemo),
    };
  } catch (error) {
    entries.close();
    throw error;
  }
}

/** A cell of the record, '' for a column the register does not have. */
const cellOf = (record: CsvRecord, column: number) => (column < 0 ? '' : record.cell(column));

/**
 * The separator of the register's first line: a comma as we write it; a semicolon (or a tab) once
 * Excel saved it on a computer whose list separator that is (German and most European ones).
 */
function separatorOf(path: string): CsvSeparator {
  const line = headOf(path, 4096).toString('latin1').split(/\r?\n/)[0] ?? '';
  const count = (separator: CsvSeparator) => line.split(separator).length;
  return (['\t', ';'] as const).find((separator) => count(separator) > count(',')) ?? ',';
}

/** Records as csv-parse reads them, for a register that is not as we write it. */
function* parsedRecords(bytes: Buffer, separator: CsvSeparator): Generator<CsvRecord> {
  const rows = parse(textOf(bytes), {
    bom: true,
    delimiter: separator,
    relax_column_count: false,
  }) as string[][];
  for (const [index, row] of rows.entries())
    yield { number: index + 1, width: row.length, cell: (at) => row[at] ?? '' };
}
