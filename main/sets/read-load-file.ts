import { loadFileLines } from './load-file-lines';
import { readerTurns } from '../tools/event-loop-turns';
import type { Digest, Reference, ReferenceEntry } from '../../verifier/sets/reference';
import { EntriesBuilder } from '../store';
import { digestOf, looksLikeWindows, normalName, unsigned } from '../../verifier/sets/reference';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import { LimitExceeded, LIMITS } from '../../protocol/limits';
import { passedBound } from '../../verifier/sets/kit-receipt';

/**
 * A Concordance load file (DAT): fields separated by DC4 (0x14), each wrapped in þ (U+00FE), a
 * newline inside a field written as ® (U+00AE); the first line names the fields. Its encoding is
 * read from the file: a UTF-8 or UTF-16 byte-order mark, else UTF-8 when it decodes as such, else
 * Windows-1252 (what older review platforms write).
 */
const SEPARATOR = '\u0014';
const QUOTE = '\u00fe';
const NEWLINE_IN_FIELD = '\u00ae';

// Header names review platforms use for the native file's path and its digests (compared loosely:
// case, spaces, dashes and underscores ignored).
const PATH_FIELDS = [
  'filepath',
  'nativepath',
  'nativefile',
  'nativelink',
  'native',
  'path',
  'doclink',
  'filename',
];
const DIGEST_FIELDS: Record<string, Digest> = {
  sha256: 'sha256',
  sha256hash: 'sha256',
  hashsha256: 'sha256',
  md5: 'md5',
  md5hash: 'md5',
  hashmd5: 'md5',
  sha1: 'sha1',
  sha1hash: 'sha1',
  hashsha1: 'sha1',
  hash: 'sha256',
};
const loose = (name: string) => name.toLowerCase().replace(/[\s_-]/g, '');

/** A load file that cannot be read as one: where and why, for the person who made it. */
export class UnreadableReference extends Error {
  constructor(
    readonly where: string,
    readonly why: Said,
  ) {
    super(`${where}: ${why.key}`);
  }
}

/** The fields of one line; null when a field is not wrapped in þ…þ. */
function fieldsOf(line: string): string[] | null {
  const fields: string[] = [];
  const raws = line.split(SEPARATOR, LIMITS.loadFileFields + 1);
  if (raws.length > LIMITS.loadFileFields) throw new LimitExceeded('loadFileFields');
  for (const raw of raws) {
    const field = raw.trim();
    if (field.length < 2 || !field.startsWith(QUOTE) || !field.endsWith(QUOTE)) return null;
    fields.push(field.slice(1, -1).split(NEWLINE_IN_FIELD).join('\n'));
  }
  return fields;
}

export interface LoadFileOptions {
  pathField?: string;
  hashField?: string;
}

export async function readLoadFile(
  path: string,
  options: LoadFileOptions = {},
  entries: EntriesBuilder = new EntriesBuilder(),
): Promise<Reference> {
  let lines: Generator<string, undefined> | undefined;
  try {
    lines = loadFileLines(path);
    return await referenceOf(path, lines, options, entries);
  } catch (error) {
    entries.close();
    if (error instanceof UnreadableReference) throw error;
    if (error instanceof LimitExceeded) throw new UnreadableReference(path, passedBound(error.bound));
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENOTREGULAR') throw new UnreadableReference(path, said('sets.why.notAFile'));
    if (code) throw new UnreadableReference(path, said('sets.why.cannotRead', { code }));
    throw error;
  } finally {
    // Closes the file when reading stopped before its end (a line refused).
    lines?.return(undefined);
  }
}

async function referenceOf(
  path: string,
  lines: Generator<string, undefined>,
  options: LoadFileOptions,
  entries: EntriesBuilder,
): Promise<Reference> {
  const header = fieldsOf(lines.next().value ?? '');
  if (!header || header.length === 0)
    throw new UnreadableReference(`${path}, line 1`, said('sets.why.noFieldNames'));
  const find = (wanted: string | undefined, candidates: readonly string[]): number => {
    if (wanted !== undefined) return header.findIndex((name) => loose(name) === loose(wanted));
    for (const candidate of candidates) {
      const at = header.findIndex((name) => loose(name) === candidate);
      if (at >= 0) return at;
    }
    return -1;
  };
  const pathAt = find(options.pathField, PATH_FIELDS);
  if (pathAt < 0)
    throw new UnreadableReference(
      `${path}, line 1`,
      options.pathField
        ? said('sets.why.noSuchField', { field: options.pathField, fields: header.join(', ') })
        : said('sets.why.noPathField', { fields: header.join(', ') }),
    );
  const hashAts = options.hashField
    ? [find(options.hashField, [])]
    : header.map((name, at) => (DIGEST_FIELDS[loose(name)] ? at : -1)).filter((at) => at >= 0);
  if (hashAts.length === 0 || hashAts.includes(-1))
    throw new UnreadableReference(
      `${path}, line 1`,
      options.hashField
        ? said('sets.why.noSuchField', { field: options.hashField, fields: header.join(', ') })
        : said('sets.why.noHashField', { fields: header.join(', ') }),
    );
  let fromWindows = false;
  const needed = new Set<Digest>();
  const takeTurn = readerTurns();
  let number = 1;
  for (const line of lines) {
    const turn = takeTurn();
    if (turn) await turn;
    const where = `${path}, line ${++number}`;
    if (line.trim() === '') continue;
    const fields = fieldsOf(line);
    if (!fields) throw new UnreadableReference(where, said('sets.why.notWrapped'));
    if (fields.length !== header.length)
      throw new UnreadableReference(
        where,
        said('sets.why.fieldCount', { count: fields.length, named: header.length }),
      );
    const name = fields[pathAt] as string;
    if (!name) throw new UnreadableReference(where, said('sets.why.emptyPath'));
    const digests: ReferenceEntry['digests'] = {};
    for (const at of hashAts) {
      const value = fields[at] as string;
      if (value === '') continue;
      const read = digestOf(value);
      if (!read)
        throw new UnreadableReference(where, said('sets.why.notAHash', { field: header[at] ?? '', value }));
      digests[read.digest] = read.hex;
      needed.add(read.digest);
    }
    if (Object.keys(digests).length === 0) throw new UnreadableReference(where, said('sets.why.noHash'));
    fromWindows ||= looksLikeWindows(name);
    // Load files write paths from the volume's root, often with a leading backslash.
    entries.add({
      name: normalName(name).replace(/^\/+/, ''),
      writtenAs: name,
      digests,
      certification: null,
      where,
    });
  }
  return {
    kind: 'load-file',
    source: path,
    entries: await entries.seal({ fromWindows }, takeTurn),
    problems: [],
    digests: (['md5', 'sha1'] as const).filter((digest) => needed.has(digest)),
    ...unsigned(),
  };
}
