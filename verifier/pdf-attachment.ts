import { RECEIPT_FORMAT } from '../protocol/receipt';

const RECEIPT_FAMILY = RECEIPT_FORMAT.slice(0, RECEIPT_FORMAT.indexOf('/') + 1);

/** Inflates a FlateDecode stream (zlib): Node's zlib in Evidence Desk, DecompressionStream in a browser. */
export type Inflate = (bytes: Uint8Array) => Promise<Uint8Array>;

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Finds the receipt a certificate carries as a PDF file attachment. Reads the embedded-file
 * streams as Evidence Desk writes them (a direct /Length, Flate or no filter); a PDF another
 * program re-saved with compressed object streams has none to find here, and says so.
 */
export async function attachedReceipt(pdf: Uint8Array, inflate: Inflate): Promise<unknown | undefined> {
  const text = latin1.decode(pdf);
  if (!text.startsWith('%PDF-')) return undefined;
  const marker = /\/Type\s*\/EmbeddedFile\b/g;
  for (let match = marker.exec(text); match; match = marker.exec(text)) {
    const start = text.lastIndexOf('<<', match.index);
    const streamAt = text.indexOf('stream', match.index);
    if (start < 0 || streamAt < 0) continue;
    const dictionary = text.slice(start, streamAt);
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
    let dataStart = streamAt + 'stream'.length;
    if (text[dataStart] === '\r') dataStart++;
    if (text[dataStart] === '\n') dataStart++;
    const dataEnd = length ? dataStart + Number(length[1]) : text.indexOf('endstream', dataStart);
    if (dataEnd < dataStart || dataEnd > pdf.length) continue;
    let bytes = pdf.subarray(dataStart, dataEnd);
    if (/\/Filter\s*\/FlateDecode/.test(dictionary)) {
      try {
        bytes = await inflate(bytes);
      } catch {
        continue;
      }
    } else if (/\/Filter/.test(dictionary)) continue;
    const receipt = parseReceipt(bytes);
    if (receipt !== undefined) return receipt;
  }
  return undefined;
}

function parseReceipt(bytes: Uint8Array): unknown | undefined {
  const json = parseJson(bytes);
  return isOurReceipt(json) ? json : undefined;
}

function parseJson(bytes: Uint8Array): unknown | undefined {
  try {
    return JSON.parse(utf8.decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

/** Any version of our receipt: the verifier then says whether it can read that version. */
export function isOurReceipt(json: unknown): boolean {
  const format = (json as { format?: unknown } | null | undefined)?.format;
  return typeof format === 'string' && format.startsWith(RECEIPT_FAMILY);
}

/**
 * What a proof file holds, whichever it is: a certificate (the receipt attached to it) or a
 * receipt (its JSON, for the verifier to judge); or why there is nothing to check.
 */
export async function readProofBytes(
  bytes: Uint8Array,
  inflate: Inflate,
): Promise<{ json: unknown } | { missing: 'pdf_without_receipt' | 'not_json' }> {
  if (latin1.decode(bytes.subarray(0, 5)) === '%PDF-') {
    const json = await attachedReceipt(bytes, inflate);
    return json === undefined ? { missing: 'pdf_without_receipt' } : { json };
  }
  const json = parseJson(bytes);
  return json === undefined ? { missing: 'not_json' } : { json };
}
