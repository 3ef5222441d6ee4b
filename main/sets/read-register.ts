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
  let rows: Record<string, string>[];
  try {
    // Read whole: a register of 100,000 lines is tens of MB, and parsing it in one go is faster.
    rows = parse(readFileSync(path), { bom: true, columns: true, relax_column_count: false });
  } catch (error) {
    const { code, lines } = error as { code?: string; lines?: number };
    throw new UnreadableReference(
      lines ? `${path}, line ${lines}` : path,
      code === 'ENOENT'
        ? said('sets.why.doesNotExist')
        : said('sets.why.notARegister', { detail: (error as Error).message }),
    );
  }
  const missing = REQUIRED.filter((column) => rows[0] && !(column in rows[0]));
  if (rows.length && missing.length)
    throw new UnreadableReference(
      `${path}, line 1`,
      said('sets.why.noColumn', { columns: missing.join(', ') }),
    );
  const problems: ReferenceProblem[] = [];
  const kept: { row: Record<string, string>; line: number }[] = [];
  rows.forEach((row, index) => {
    const line = index + 2;
    if (row.State === 'removed') return;
    if (row.State !== 'anchored') {
      problems.push({
        where: `${path}, line ${line}`,
        why: said('sets.why.notAnchored', { name: row.File || row.Path || '', state: row.State ?? '' }),
      });
      return;
    }
    kept.push({ row, line });
  });
  const written = kept.map(({ row }) => row.Path ?? '');
  const names = relativeToCommonRoot(written);
  const entries: ReferenceEntry[] = [];
  kept.forEach(({ row, line }, index) => {
    const where = `${path}, line ${line}`;
    const sha256 = digestOf(row['SHA-256'] ?? '');
    if (!sha256 || sha256.digest !== 'sha256') {
      problems.push({ where, why: said('sets.why.notASha256', { value: row['SHA-256'] ?? '' }) });
      return;
    }
    const id = row['Certification id'] || null;
    entries.push({
      name: names[index] as string,
      writtenAs: row.Path as string,
      digests: { sha256: sha256.hex },
      certification: lookup(sha256.hex, id) ?? { id, signedAt: null, anchoredAt: null },
      where,
    });
  });
  return {
    kind: 'register',
    source: path,
    entries,
    fromWindows: looksLikeWindows(written),
    problems,
    digests: [],
  };
}
