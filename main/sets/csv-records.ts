import { closeSync, openSync, readSync } from 'node:fs';

/** One record of a CSV file, valid until the next is read: its cells are decoded when asked for. */
export interface CsvRecord {
  /** Which record it is, the header being 1 (a line of the file, unless a cell holds a line break). */
  readonly number: number;
  readonly width: number;
  cell(column: number): string;
}

/** The file is not RFC 4180 as we write it: a quote out of place, or a record of another width. */
export class NotWellFormed extends Error {}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
const CHUNK = 1024 * 1024;

/**
 * The records of a UTF-8 CSV file (RFC 4180, as csv-stringify writes it), read a megabyte at a
 * time: memory holds one chunk, whatever the file's size. Only the cells asked for are decoded,
 * each into a string of its own (a string cut from a whole file's text would keep all of it
 * alive). Throws NotWellFormed at anything else, for a general parser to say where and why.
 */
export function* csvRecords(path: string, chunkBytes = CHUNK): Generator<CsvRecord> {
  const fd = openSync(path, 'r');
  try {
    let bytes = Buffer.alloc(0);
    let atEnd = false;
    const more = () => {
      const chunk = Buffer.allocUnsafe(chunkBytes);
      const read = readSync(fd, chunk, 0, chunkBytes, null);
      atEnd = read === 0;
      bytes = Buffer.concat([bytes, chunk.subarray(0, read)]);
    };
    while (bytes.length < 3 && !atEnd) more();
    let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    // Each cell's start and end in `bytes`, and whether a quote in it is written twice.
    let starts: number[] = [];
    let ends: number[] = [];
    let doubled: boolean[] = [];
    let number = 0;
    let width = -1;
    const record: CsvRecord = {
      get number() {
        return number;
      },
      get width() {
        return starts.length;
      },
      cell(column) {
        if (column >= starts.length) return '';
        const text = bytes.toString('utf8', starts[column], ends[column]);
        return doubled[column] ? text.replaceAll('""', '"') : text;
      },
    };
    while (at < bytes.length || !atEnd) {
      const next = recordAt(bytes, at, atEnd);
      if (next === null) {
        // The record runs past what is read: keep it, read on.
        bytes = bytes.subarray(at);
        at = 0;
        more();
        continue;
      }
      ({ starts, ends, doubled } = next);
      number++;
      if (width < 0) width = starts.length;
      else if (starts.length !== width) throw new NotWellFormed();
      yield record;
      at = next.end;
    }
  } finally {
    closeSync(fd);
  }
}

/** The record starting at `at`, or null when it may go on past the bytes read so far. */
function recordAt(
  bytes: Buffer,
  at: number,
  atEnd: boolean,
): { starts: number[]; ends: number[]; doubled: boolean[]; end: number } | null {
  const starts: number[] = [];
  const ends: number[] = [];
  const doubled: boolean[] = [];
  const length = bytes.length;
  for (;;) {
    if (bytes[at] === QUOTE) {
      let search = at + 1;
      let twice = false;
      for (;;) {
        const close = bytes.indexOf(QUOTE, search);
        // A quote that is the last byte read may be the first of two.
        if (close < 0 || (close + 1 >= length && !atEnd)) return atEnd ? fail() : null;
        if (bytes[close + 1] !== QUOTE) {
          starts.push(at + 1);
          ends.push(close);
          doubled.push(twice);
          at = close + 1;
          break;
        }
        twice = true;
        search = close + 2;
      }
    } else {
      let end = at;
      for (let byte = bytes[end]; end < length; byte = bytes[++end])
        if (byte === COMMA || byte === CR || byte === LF || byte === QUOTE) break;
      if (bytes[end] === QUOTE) fail();
      starts.push(at);
      ends.push(end);
      doubled.push(false);
      at = end;
    }
    if (at >= length) return atEnd ? { starts, ends, doubled, end: at } : null;
    const byte = bytes[at];
    if (byte === COMMA) {
      at++;
      if (at >= length && !atEnd) return null;
      continue;
    }
    if (byte === LF) return { starts, ends, doubled, end: at + 1 };
    if (byte !== CR) fail();
    if (at + 1 >= length) return atEnd ? fail() : null;
    if (bytes[at + 1] !== LF) fail();
    return { starts, ends, doubled, end: at + 2 };
  }
}

function fail(): never {
  throw new NotWellFormed();
}
