import { LIMITS, LimitExceeded } from '../../protocol/limits';
import type { PdfDictionary, PdfValue } from './pdf-syntax';
import { MalformedPdf, PdfName, PdfReader, PdfRef, integerOf, isDictionary } from './pdf-syntax';

/** A stream in a filter this reader does not decode: what it holds cannot be known here. */
export class UndecodableStream extends Error {}

/** Decompresses a FlateDecode stream (zlib) up to a size, refusing anything larger. */
export type BoundedInflate = (bytes: Uint8Array, maxBytes: number) => Promise<Uint8Array>;

const STARTXREF = Uint8Array.from('startxref', (c) => c.charCodeAt(0));

/**
 * A PDF as its reader shows it: the final revision, found from the last `startxref`, each object
 * where the newest cross-reference section says it is (an incremental update supersedes what it
 * replaces). Classic cross-reference tables only, as Evidence Desk writes them; a PDF another
 * program re-saved with cross-reference streams is said to be unreadable here, not guessed at.
 */
export class PdfDocument {
  private readonly offsets = new Map<number, number>();
  readonly trailer: PdfDictionary;

  constructor(readonly bytes: Uint8Array) {
    if (bytes.length > LIMITS.pdfBytes) throw new LimitExceeded('pdfBytes');
    const at = lastIndexOf(bytes, STARTXREF);
    if (at < 0) throw new MalformedPdf('no startxref');
    const reader = new PdfReader(bytes);
    reader.at = at + STARTXREF.length;
    let sectionAt = integerOf(reader.word());
    let trailer: PdfDictionary | undefined;
    const seen = new Set<number>();
    while (Number.isInteger(sectionAt)) {
      if (seen.has(sectionAt)) throw new MalformedPdf('the revisions loop');
      seen.add(sectionAt);
      if (seen.size > LIMITS.pdfRevisions) throw new LimitExceeded('pdfRevisions');
      const section = this.readSection(sectionAt);
      // A hybrid file's cross-reference stream would place objects this reader does not see.
      if (section.has('XRefStm')) throw new MalformedPdf('a cross-reference stream');
      trailer ??= section;
      const previous = section.get('Prev');
      sectionAt = typeof previous === 'number' ? previous : NaN;
    }
    if (!trailer) throw new MalformedPdf('no trailer');
    this.trailer = trailer;
    this.revisions = seen.size;
  }

  /** How many revisions the file has: 1 as Evidence Desk writes it; more after any incremental update. */
  readonly revisions: number;
  /** Objects already read, by number, and how many reads are left (a budget against reading one object millions of times). */
  private readonly read = new Map<number, { value: PdfValue; streamAt: number | null }>();
  private readsLeft = LIMITS.pdfObjects;

  /** One cross-reference table and its trailer: objects not yet placed by a newer one are placed. */
  private readSection(at: number): PdfDictionary {
    const reader = new PdfReader(this.bytes);
    reader.at = at;
    reader.expect('xref');
    for (;;) {
      const first = reader.word();
      if (first === 'trailer') break;
      // An empty word is the end of the file or a delimiter: never a subsection (it would loop).
      const start = integerOf(first);
      const count = integerOf(reader.word());
      if (this.offsets.size + count > LIMITS.pdfObjects) throw new LimitExceeded('pdfObjects');
      for (let i = 0; i < count; i++) {
        const offset = integerOf(reader.word());
        integerOf(reader.word());
        const kind = reader.word();
        if (kind === 'n' && !this.offsets.has(start + i)) this.offsets.set(start + i, offset);
        else if (kind === 'f' && !this.offsets.has(start + i)) this.offsets.set(start + i, -1);
        else if (kind !== 'n' && kind !== 'f')
          throw new MalformedPdf('a cross-reference entry is not n or f');
      }
    }
    const trailer = reader.value();
    if (!isDictionary(trailer)) throw new MalformedPdf('the trailer is not a dictionary');
    return trailer;
  }

  /** A value with its reference followed (one level: a reference to a reference is not a certificate's). */
  resolve(value: PdfValue | undefined): PdfValue | undefined {
    return value instanceof PdfRef ? this.object(value).value : value;
  }

  /** An indirect object: its value, and where its stream's data starts when it has one. */
  object(ref: PdfRef): { value: PdfValue; streamAt: number | null } {
    const known = this.read.get(ref.number);
    if (known) return known;
    if (--this.readsLeft < 0) throw new LimitExceeded('pdfObjects');
    const object = this.readObject(ref);
    this.read.set(ref.number, object);
    return object;
  }

  private readObject(ref: PdfRef): { value: PdfValue; streamAt: number | null } {
    const offset = this.offsets.get(ref.number);
    if (offset === undefined || offset < 0) return { value: null, streamAt: null };
    const reader = new PdfReader(this.bytes);
    reader.at = offset;
    if (Number(reader.word()) !== ref.number)
      throw new MalformedPdf(`object ${ref.number} is not where it is said to be`);
    reader.word();
    reader.expect('obj');
    const value = reader.value();
    const after = reader.at;
    if (reader.word() !== 'stream') return { value, streamAt: null };
    let streamAt = reader.at;
    if (this.bytes[streamAt] === 0x0d) streamAt++;
    if (this.bytes[streamAt] === 0x0a) streamAt++;
    return after < streamAt ? { value, streamAt } : { value, streamAt: null };
  }

  /** A stream's data, decompressed up to `maxBytes` (Flate or none); another filter throws UndecodableStream. */
  async stream(ref: PdfRef, inflate: BoundedInflate, maxBytes: number): Promise<Uint8Array | undefined> {
    const { value, streamAt } = this.object(ref);
    if (!isDictionary(value) || streamAt === null) return undefined;
    const length = this.resolve(value.get('Length'));
    if (
      typeof length !== 'number' ||
      !Number.isInteger(length) ||
      length < 0 ||
      streamAt + length > this.bytes.length
    )
      throw new MalformedPdf('a stream has no length that fits');
    const data = this.bytes.subarray(streamAt, streamAt + length);
    const filter = this.resolve(value.get('Filter'));
    const filters = Array.isArray(filter) ? filter : filter === undefined || filter === null ? [] : [filter];
    if (filters.length === 0) {
      if (data.length > maxBytes) throw new LimitExceeded('receiptBytes');
      return data;
    }
    // Flate without parameters, as Evidence Desk writes it; any other filter cannot be read here.
    if (
      filters.length === 1 &&
      filters[0] instanceof PdfName &&
      filters[0].name === 'FlateDecode' &&
      !value.has('DecodeParms')
    )
      return inflate(data, maxBytes);
    throw new UndecodableStream();
  }
}

/** The last place `needle` occurs in `bytes`, searched from the end (linear, no string of the file). */
function lastIndexOf(bytes: Uint8Array, needle: Uint8Array): number {
  outer: for (let at = bytes.length - needle.length; at >= 0; at--) {
    for (let i = 0; i < needle.length; i++) if (bytes[at + i] !== needle[i]) continue outer;
    return at;
  }
  return -1;
}
