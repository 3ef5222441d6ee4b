/**
 * The few PDF objects a certificate's reader needs (ISO 32000-1 §7.3), parsed from bytes at an
 * offset: numbers, names, strings, arrays, dictionaries and references. Each value is read once,
 * from where the cross-reference says it is: nothing scans the file for markers (docs/security.md).
 */
export type PdfValue = number | boolean | null | PdfName | PdfRef | Uint8Array | PdfValue[] | PdfDictionary;

export class PdfName {
  constructor(readonly name: string) {}
}

export class PdfRef {
  constructor(
    readonly number: number,
    readonly generation: number,
  ) {}
}

export type PdfDictionary = Map<string, PdfValue>;

/** A PDF that is not as its structure says: read no further. */
export class MalformedPdf extends Error {}

// Nesting deeper than this is no certificate's: a hostile file of "[[[[…" stops here.
const MAX_NESTING = 64;

const isWhite = (byte: number) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
const isDelimiter = (byte: number) =>
  byte === 0x28 ||
  byte === 0x29 ||
  byte === 0x3c ||
  byte === 0x3e ||
  byte === 0x5b ||
  byte === 0x5d ||
  byte === 0x7b ||
  byte === 0x7d ||
  byte === 0x2f ||
  byte === 0x25;
const latin1 = new TextDecoder('latin1');

export class PdfReader {
  at = 0;

  constructor(readonly bytes: Uint8Array) {}

  /** The byte at `i`, or -1 past the end. */
  private byte(i: number): number {
    return this.bytes[i] ?? -1;
  }

  /** Skips white space and comments. */
  skip(): void {
    const { bytes } = this;
    for (;;) {
      while (this.at < bytes.length && isWhite(this.byte(this.at))) this.at++;
      if (this.byte(this.at) !== 0x25) return;
      while (this.at < bytes.length && this.byte(this.at) !== 0x0a && this.byte(this.at) !== 0x0d) this.at++;
    }
  }

  /** The next run of regular characters: a keyword or a number. */
  word(): string {
    this.skip();
    const start = this.at;
    while (this.at < this.bytes.length && !isWhite(this.byte(this.at)) && !isDelimiter(this.byte(this.at)))
      this.at++;
    return latin1.decode(this.bytes.subarray(start, this.at));
  }

  /** Expects a keyword next ("obj", "stream", "trailer"). */
  expect(keyword: string): void {
    if (this.word() !== keyword) throw new MalformedPdf(`expected ${keyword}`);
  }

  /** The value at the reader's position. */
  value(depth = 0): PdfValue {
    if (depth > MAX_NESTING) throw new MalformedPdf('nested too deep');
    this.skip();
    const byte = this.byte(this.at);
    if (byte < 0) throw new MalformedPdf('ends early');
    if (byte === 0x2f) return this.name();
    if (byte === 0x28) return this.literalString();
    if (byte === 0x5b) {
      this.at++;
      const items: PdfValue[] = [];
      for (;;) {
        this.skip();
        if (this.byte(this.at) === 0x5d) {
          this.at++;
          return items;
        }
        items.push(this.value(depth + 1));
      }
    }
    if (byte === 0x3c && this.byte(this.at + 1) === 0x3c) {
      this.at += 2;
      const dictionary: PdfDictionary = new Map();
      for (;;) {
        this.skip();
        if (this.byte(this.at) === 0x3e && this.byte(this.at + 1) === 0x3e) {
          this.at += 2;
          return dictionary;
        }
        const key = this.value(depth + 1);
        if (!(key instanceof PdfName)) throw new MalformedPdf('a dictionary key is not a name');
        dictionary.set(key.name, this.value(depth + 1));
      }
    }
    if (byte === 0x3c) return this.hexString();
    const word = this.word();
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    // Numbers as ISO 32000 writes them (no hex, no exponent): a loose reading would find other objects.
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) throw new MalformedPdf(`unexpected ${word.slice(0, 20)}`);
    const number = Number(word);
    // "12 0 R" is a reference: look ahead without losing the number if it is not.
    if (Number.isInteger(number) && number >= 0) {
      const back = this.at;
      const generation = this.word();
      if (/^\d+$/.test(generation) && this.word() === 'R') return new PdfRef(number, Number(generation));
      this.at = back;
    }
    return number;
  }

  private name(): PdfName {
    this.at++;
    const start = this.at;
    while (this.at < this.bytes.length && !isWhite(this.byte(this.at)) && !isDelimiter(this.byte(this.at)))
      this.at++;
    const raw = latin1.decode(this.bytes.subarray(start, this.at));
    return new PdfName(
      raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    );
  }

  private hexString(): Uint8Array {
    const end = this.bytes.indexOf(0x3e, this.at);
    if (end < 0) throw new MalformedPdf('a hex string does not end');
    const hex = latin1.decode(this.bytes.subarray(this.at + 1, end)).replace(/\s/g, '');
    this.at = end + 1;
    const padded = hex.length % 2 ? `${hex}0` : hex;
    if (!/^[0-9a-fA-F]*$/.test(padded)) throw new MalformedPdf('a hex string holds other characters');
    const out = new Uint8Array(padded.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(padded.slice(2 * i, 2 * i + 2), 16);
    return out;
  }

  private literalString(): Uint8Array {
    const { bytes } = this;
    // At most the bytes that remain: a 60 MB string is 60 MB, not an array of 60 million numbers.
    const out = new Uint8Array(bytes.length - this.at);
    let length = 0;
    const push = (byte: number) => (out[length++] = byte);
    let open = 1;
    this.at++;
    while (this.at < bytes.length) {
      const byte = this.byte(this.at++);
      if (byte === 0x5c) {
        const next = this.byte(this.at++);
        const escaped: Record<number, number> = {
          0x6e: 0x0a,
          0x72: 0x0d,
          0x74: 0x09,
          0x62: 0x08,
          0x66: 0x0c,
        };
        if (next >= 0x30 && next <= 0x37) {
          let octal = next - 0x30;
          for (let i = 0; i < 2 && this.byte(this.at) >= 0x30 && this.byte(this.at) <= 0x37; i++)
            octal = octal * 8 + this.byte(this.at++) - 0x30;
          push(octal & 0xff);
        } else if (next === 0x0d || next === 0x0a) {
          if (next === 0x0d && this.byte(this.at) === 0x0a) this.at++;
        } else push(escaped[next] ?? next);
        continue;
      }
      if (byte === 0x28) open++;
      if (byte === 0x29 && --open === 0) return out.slice(0, length);
      push(byte);
    }
    throw new MalformedPdf('a string does not end');
  }
}

/** A dictionary's entry if it is a name, else undefined. */
export const nameIn = (dictionary: PdfDictionary, key: string): string | undefined => {
  const value = dictionary.get(key);
  return value instanceof PdfName ? value.name : undefined;
};

export const isDictionary = (value: PdfValue | undefined): value is PdfDictionary => value instanceof Map;

/** A non-negative integer as a cross-reference writes it; anything else is a malformed PDF. */
export function integerOf(word: string): number {
  if (!/^\d{1,12}$/.test(word)) throw new MalformedPdf(`not an integer: ${word.slice(0, 20)}`);
  return Number(word);
}
