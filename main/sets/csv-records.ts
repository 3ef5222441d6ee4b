import { isUtf8 } from 'node:buffer';
import { closeSync, readSync } from 'node:fs';
import { openRegularFile } from '../evidence/read-proof';
import { LIMITS, LimitExceeded } from '../../protocol/limits';

/** One record of a CSV file, valid until the next is read: its cells are decoded when asked for. */
export interface CsvRecord {
  /** Which record it is, the header being 1 (a line of the file, unless a cell holds a line break). */
  readonly number: number;
  readonly width: number;
  cell(column: number): string;
}

/** The file is not RFC 4180 as we write it: a quote out of place, or a record of another width. */
export class NotWellFormed extends Error {}

/** What separates cells: ours write commas; Excel saves with the list separator of its region. */
export type CsvSeparator = ',' | ';' | '\t';

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const CHUNK = 1024 * 1024;
const WINDOWS_1252 = new TextDecoder('windows-1252');

/** Text as UTF-8 where the bytes are, else as Windows-1252 (Excel's "CSV" on a Western computer). */
export const textOf = (bytes: Buffer): string =>
  isUtf8(bytes) ? bytes.toString('utf8') : WINDOWS_1252.decode(bytes);

/** The first `length` bytes of a file (fewer when it is shorter); throws when it cannot be read. */
export function headOf(path: string, length: number): Buffer {
  const head = Buffer.alloc(length);
  const fd = openRegularFile(path);
  try {
    return head.subarray(0, readSync(fd, head, 0, length, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * The records of a CSV file (RFC 4180, as csv-stringify writes it, or Excel saves it), read a
 * megabyte at a time: memory holds one chunk, whatever the file's size. Only the cells asked for
 * are decoded, each into a string of its own (a string cut from a whole file's text would keep all
 * of it alive): as UTF-8 where they are, else as Windows-1252 (Excel's "CSV" on a Western
 * computer). Throws NotWellFormed at anything else, for a general parser to say where and why.
 */
export function* csvRecords(
  path: string,
  { separator = ',', chunkBytes = CHUNK }: { separator?: CsvSeparator; chunkBytes?: number } = {},
): Generator<CsvRecord> {
  const fd = openRegularFile(path);
  try {
    const cells = new RecordCells(separator.charCodeAt(0));
    let atEnd = false;
    const more = () => {
      const chunk = Buffer.allocUnsafe(chunkBytes);
      const read = readSync(fd, chunk, 0, chunkBytes, null);
      atEnd = read === 0;
      cells.bytes = Buffer.concat([cells.bytes, chunk.subarray(0, read)]);
    };
    while (cells.bytes.length < 3 && !atEnd) more();
    const { bytes } = cells;
    let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    let width = -1;
    while (at < cells.bytes.length || !atEnd) {
      const end = cells.scan(at, atEnd);
      if (end < 0) {
        // A record longer than any genuine register's is refused, never held whole (docs/security.md).
        if (cells.bytes.length - at > LIMITS.loadFileLineBytes) throw new LimitExceeded('loadFileLineBytes');
        // The record runs past what is read: keep it, read on.
        cells.bytes = cells.bytes.subarray(at);
        at = 0;
        more();
        continue;
      }
      cells.number++;
      if (width < 0) width = cells.width;
      else if (cells.width !== width) throw new NotWellFormed();
      yield cells;
      at = end;
    }
  } finally {
    closeSync(fd);
  }
}

/** The record being read: where each cell is in the bytes read, reused from record to record. */
class RecordCells implements CsvRecord {
  constructor(private readonly separator: number) {}

  bytes = Buffer.alloc(0);
  number = 0;
  width = 0;
  private starts = new Int32Array(32);
  private ends = new Int32Array(32);
  /** Whether a quote in the cell is written twice. */
  private doubled = new Uint8Array(32);

  cell(column: number): string {
    if (column >= this.width) return '';
    const start = this.starts[column];
    const end = this.ends[column];
    let text = this.bytes.toString('utf8', start, end);
    // A replacement character is rare in a name, but marks bytes that may not be UTF-8.
    if (text.includes('\ufffd')) text = textOf(this.bytes.subarray(start, end));
    return this.doubled[column] ? text.replaceAll('""', '"') : text;
  }

  /** Reads the record starting at `at`: where it ends, or -1 when it may go on past the bytes read. */
  scan(at: number, atEnd: boolean): number {
    const { bytes, separator } = this;
    const length = bytes.length;
    this.width = 0;
    for (;;) {
      if (bytes[at] === QUOTE) {
        let search = at + 1;
        let twice = false;
        for (;;) {
          const close = bytes.indexOf(QUOTE, search);
          // A quote that is the last byte read may be the first of two.
          if (close < 0 || (close + 1 >= length && !atEnd)) return atEnd ? fail() : -1;
          if (bytes[close + 1] !== QUOTE) {
            this.add(at + 1, close, twice);
            at = close + 1;
            break;
          }
          twice = true;
          search = close + 2;
        }
      } else {
        let end = at;
        for (let byte = bytes[end]; end < length; byte = bytes[++end])
          if (byte === separator || byte === CR || byte === LF || byte === QUOTE) break;
        if (bytes[end] === QUOTE) fail();
        this.add(at, end, false);
        at = end;
      }
      if (at >= length) return atEnd ? at : -1;
      const byte = bytes[at];
      if (byte === separator) {
        at++;
        if (at >= length && !atEnd) return -1;
        continue;
      }
      if (byte === LF) return at + 1;
      if (byte !== CR) fail();
      if (at + 1 >= length) return atEnd ? fail() : -1;
      if (bytes[at + 1] !== LF) fail();
      return at + 2;
    }
  }

  private add(start: number, end: number, twice: boolean): void {
    if (this.width === this.starts.length) {
      const starts = new Int32Array(this.width * 2);
      const ends = new Int32Array(this.width * 2);
      const doubled = new Uint8Array(this.width * 2);
      starts.set(this.starts);
      ends.set(this.ends);
      doubled.set(this.doubled);
      Object.assign(this, { starts, ends, doubled });
    }
    this.starts[this.width] = start;
    this.ends[this.width] = end;
    this.doubled[this.width] = twice ? 1 : 0;
    this.width++;
  }
}

function fail(): never {
  throw new NotWellFormed();
}
