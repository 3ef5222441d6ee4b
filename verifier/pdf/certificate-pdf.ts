import type { Bound } from '../../protocol/limits';
import { LIMITS, LimitExceeded } from '../../protocol/limits';
import { boundedJson } from '../bounded-json';
import type { BoundedInflate } from './pdf-document';
import { PdfDocument, UndecodableStream } from './pdf-document';
import type { PdfDictionary, PdfValue } from './pdf-syntax';
import { PdfRef, isDictionary, nameIn } from './pdf-syntax';

/** Where a certificate's document timestamp is and what it covers, for checkSeal to judge. */
export interface SealBytes {
  /** The token, DER, without the placeholder's padding. */
  token: Uint8Array;
  /** The bytes the token covers: the file but the token's own hex string. */
  signed: Uint8Array;
  /** False when bytes were added after the sealed revision (an incremental update, or anything). */
  coversWholeFile: boolean;
  /**
   * What the authority's issuers signed about its certificates, from the file's /DSS (PAdES B-LT):
   * OCSP responses and CRLs, DER; null when the file keeps none.
   */
  validation?: { ocsp: Uint8Array[]; crl: Uint8Array[] } | null;
}

export type CertificateRead =
  | { receipt: unknown; seal: SealBytes | null }
  | { missing: 'no_receipt' | 'ambiguous' | 'unreadable' }
  | { refused: Bound };

// Name-tree nodes visited and form fields looked at: far above a certificate's one of each.
const MAX_TREE_NODES = 256;
const MAX_FIELDS = 64;

/**
 * The receipt a certificate PDF carries, read as a PDF reader shows it: the final revision's
 * /EmbeddedFiles (not bytes hidden after %%EOF, nor an attachment an update superseded). More
 * than one receipt is ambiguous and refused. Also the document timestamp's bytes, when sealed.
 */
export async function readCertificatePdf(
  bytes: Uint8Array,
  inflate: BoundedInflate,
): Promise<CertificateRead> {
  try {
    const pdf = new PdfDocument(bytes);
    const catalog = pdf.resolve(pdf.trailer.get('Root'));
    if (!isDictionary(catalog)) return { missing: 'unreadable' };
    const receipts: unknown[] = [];
    // An attachment in a filter not read here may be a receipt a PDF reader shows: it counts as one.
    let undecodable = 0;
    for (const file of attachedFiles(pdf, catalog)) {
      let data: Uint8Array | undefined;
      try {
        data = await pdf.stream(file, inflate, LIMITS.receiptBytes);
      } catch (error) {
        if (!(error instanceof UndecodableStream)) throw error;
        undecodable++;
        continue;
      }
      if (!data) continue;
      const read = boundedJson(data);
      if (read && 'refused' in read) return read;
      if (read && isOurReceipt(read.json)) receipts.push(read.json);
    }
    if (receipts.length + undecodable > 1) return { missing: 'ambiguous' };
    if (receipts.length === 0) return { missing: 'no_receipt' };
    const seal = sealOf(pdf, catalog);
    return {
      receipt: receipts[0],
      seal:
        seal && seal.coversWholeFile
          ? { ...seal, validation: await validationOf(pdf, catalog, inflate) }
          : seal,
    };
  } catch (error) {
    if (error instanceof LimitExceeded) return { refused: error.bound };
    // Whatever else a hostile file makes of this reader is a PDF that cannot be read: no stack trace.
    return { missing: 'unreadable' };
  }
}

// The DSS's answers read at most: a chain of a few certificates has a few of each.
const MAX_STATUS_ANSWERS = 16;

/**
 * The final revision's /DSS: its /OCSPs and /CRLs streams, each bounded as a kit's seal file is. An
 * entry that cannot be read is left out: a seal's standing is then said from what remains, or not.
 */
async function validationOf(
  pdf: PdfDocument,
  catalog: PdfDictionary,
  inflate: BoundedInflate,
): Promise<{ ocsp: Uint8Array[]; crl: Uint8Array[] } | null> {
  const dss = pdf.resolve(catalog.get('DSS'));
  if (!isDictionary(dss)) return null;
  const read = async (key: 'OCSPs' | 'CRLs') => {
    const list = pdf.resolve(dss.get(key));
    const answers: Uint8Array[] = [];
    for (const entry of Array.isArray(list) ? list.slice(0, MAX_STATUS_ANSWERS) : []) {
      if (!(entry instanceof PdfRef)) continue;
      const data = await pdf.stream(entry, inflate, LIMITS.kitSealPartBytes).catch(() => undefined);
      if (data) answers.push(data);
    }
    return answers;
  };
  const validation = { ocsp: await read('OCSPs'), crl: await read('CRLs') };
  return validation.ocsp.length + validation.crl.length > 0 ? validation : null;
}

/** The embedded files' streams, from the catalog's /Names /EmbeddedFiles name tree. */
function attachedFiles(pdf: PdfDocument, catalog: PdfDictionary): PdfRef[] {
  const names = pdf.resolve(catalog.get('Names'));
  const root = isDictionary(names) ? pdf.resolve(names.get('EmbeddedFiles')) : undefined;
  const files = new Map<number, PdfRef>();
  const pending: PdfValue[] = root === undefined ? [] : [root];
  const seen = new Set<number>();
  for (let visited = 0; pending.length; visited++) {
    if (visited > MAX_TREE_NODES) throw new LimitExceeded('pdfObjects');
    const next = pending.pop();
    // A tree whose kids lead back to a node already read loops: each node is read once.
    if (next instanceof PdfRef) {
      if (seen.has(next.number)) continue;
      seen.add(next.number);
    }
    const node = pdf.resolve(next);
    if (!isDictionary(node)) continue;
    const kids = pdf.resolve(node.get('Kids'));
    if (Array.isArray(kids)) pending.push(...kids.slice(0, MAX_TREE_NODES));
    const pairs = pdf.resolve(node.get('Names'));
    if (!Array.isArray(pairs)) continue;
    for (let i = 1; i < pairs.length; i += 2) {
      const spec = pdf.resolve(pairs[i]);
      const embedded = isDictionary(spec) ? pdf.resolve(spec.get('EF')) : undefined;
      if (!isDictionary(embedded)) continue;
      // Readers pick /UF or /F as they please: both are read, and two different files are two.
      for (const stream of [embedded.get('F'), embedded.get('UF')])
        if (stream instanceof PdfRef) files.set(stream.number, stream);
      if (files.size > LIMITS.pdfAttachments) throw new LimitExceeded('pdfAttachments');
    }
  }
  return [...files.values()];
}

/**
 * The document timestamp (/DocTimeStamp) the final revision's form lists that covers the whole
 * file, and what its byte range covers. A PDF sealed for the long term (PAdES B-LTA) has two: the
 * first over the first revision, and one over the whole file, validation data included.
 */
function sealOf(pdf: PdfDocument, catalog: PdfDictionary): SealBytes | null {
  const form = pdf.resolve(catalog.get('AcroForm'));
  const fields = isDictionary(form) ? pdf.resolve(form.get('Fields')) : undefined;
  let first: SealBytes | null = null;
  for (const entry of Array.isArray(fields) ? fields.slice(0, MAX_FIELDS) : []) {
    const field = pdf.resolve(entry);
    const signature = isDictionary(field) ? pdf.resolve(field.get('V')) : undefined;
    if (!isDictionary(signature) || nameIn(signature, 'Type') !== 'DocTimeStamp') continue;
    const seal = sealBytes(pdf, signature);
    if (seal.coversWholeFile) return seal;
    first ??= seal;
  }
  // Evidence Desk writes one revision, and for the long term a second under a seal over the whole
  // file. Any other update came after the seal, whatever its own form says (it may drop the seal's
  // field): nothing in it is covered.
  return pdf.revisions > 1 ? brokenSeal() : first;
}

function sealBytes(pdf: PdfDocument, signature: PdfDictionary): SealBytes {
  const range = pdf.resolve(signature.get('ByteRange'));
  const contents = pdf.resolve(signature.get('Contents'));
  if (!Array.isArray(range) || range.length !== 4 || !(contents instanceof Uint8Array)) return brokenSeal();
  const [start, firstLength, second, secondLength] = range;
  const { bytes } = pdf;
  if (
    start !== 0 ||
    ![firstLength, second, secondLength].every(
      (n) => typeof n === 'number' && Number.isInteger(n) && n >= 0,
    ) ||
    (second as number) + (secondLength as number) > bytes.length ||
    bytes[firstLength as number] !== 0x3c ||
    bytes[(second as number) - 1] !== 0x3e
  )
    return brokenSeal();
  const signed = new Uint8Array((firstLength as number) + (secondLength as number));
  signed.set(bytes.subarray(0, firstLength as number));
  signed.set(
    bytes.subarray(second as number, (second as number) + (secondLength as number)),
    firstLength as number,
  );
  return {
    token: contents.subarray(0, derLength(contents)),
    signed,
    coversWholeFile: (second as number) + (secondLength as number) === bytes.length,
  };
}

/** A seal whose byte range cannot be what it says: nothing it covers can be trusted. */
const brokenSeal = (): SealBytes => ({
  token: new Uint8Array(0),
  signed: new Uint8Array(0),
  coversWholeFile: false,
});

/** The length of the DER element at the start of `bytes` (the token), so the placeholder's zeros are cut off. */
function derLength(bytes: Uint8Array): number {
  const first = bytes[1] ?? 0;
  if (first === 0x80) return bytes.length; // BER's indefinite length: the parser finds the end.
  if (first < 0x80) return 2 + first;
  const count = first & 0x7f;
  if (count > 4) return bytes.length;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + (bytes[2 + i] ?? 0);
  return Math.min(bytes.length, 2 + count + length);
}

const RECEIPT_FAMILY = 'evidence-desk-receipt/';

/** Any version of our receipt: the verifier then says whether it can read that version. */
export function isOurReceipt(json: unknown): boolean {
  const format = (json as { format?: unknown } | null | undefined)?.format;
  return typeof format === 'string' && format.startsWith(RECEIPT_FAMILY);
}
