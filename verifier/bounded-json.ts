import type { Bound } from '../protocol/limits';
import { LIMITS } from '../protocol/limits';

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON from the other side, read within bounds (protocol/limits.ts): its size, how deep it nests
 * and how many values it holds are counted on its bytes before it is parsed, so a small file of
 * brackets never becomes a gigabyte of objects. Undefined when it is not JSON at all.
 */
export function boundedJson(bytes: Uint8Array): { json: unknown } | { refused: Bound } | undefined {
  if (bytes.length > LIMITS.receiptBytes) return { refused: 'receiptBytes' };
  const over = firstBoundPassed(bytes);
  if (over) return { refused: over };
  try {
    return { json: JSON.parse(utf8.decode(bytes)) as unknown };
  } catch {
    return undefined;
  }
}

/** One pass over the bytes, outside strings: nesting depth, and values as their separators count them. */
function firstBoundPassed(bytes: Uint8Array): Bound | null {
  let depth = 0;
  let values = 1;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      // A string is skipped to its closing quote natively: a receipt is mostly base64 in strings.
      at = stringEnd(bytes, at);
      if (at < 0) return null;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > LIMITS.jsonDepth) return 'jsonDepth';
      if (++values > LIMITS.jsonValues) return 'jsonValues';
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
    else if (byte === COMMA && ++values > LIMITS.jsonValues) return 'jsonValues';
  }
  return null;
}

/** Where the string opened at `open` closes (a quote after an even run of backslashes); -1 if never. */
function stringEnd(bytes: Uint8Array, open: number): number {
  for (let at = open + 1; ; at++) {
    at = bytes.indexOf(QUOTE, at);
    if (at < 0) return -1;
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
