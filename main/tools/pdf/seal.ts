import type { Said } from '../../../protocol/said';
import type { Pdf } from './document';
import { withValidationUpdate } from './long-term';
import { BYTE_RANGE_PLACEHOLDER, CONTENTS_BYTES, EMPTY_CONTENTS, PLACEHOLDER_TEXT } from './seal-placeholder';

/**
 * Sealing a PDF with a PAdES document timestamp (ETSI EN 319 142-1, /DocTimeStamp, SubFilter
 * ETSI.RFC3161): an RFC 3161 token over every byte of the file but the token itself. Acrobat shows
 * it in its signature panel and flags a file changed since. No maintained Node library writes a
 * document timestamp into a PDF that pdfkit makes (the signpdf family signs CMS signatures, /Sig),
 * so this is a signature placeholder written with pdfkit's own objects and filled in afterwards:
 * four numbers and one hex string, at the same length, so no offset in the file moves.
 */

/**
 * Asks a timestamping authority for a token over these bytes, with the authority's certificates
 * (base64 DER, signer first) when it is known; else why none was had.
 */
export type DocumentTimestamper = (signedBytes: Uint8Array) => Promise<DocumentTimestamp | SealRefused>;

/** No seal now: why, in English (it is written into the export), and in words for the person. */
export interface SealRefused {
  problem: string;
  reason?: Said;
  /** Asking again will not help (the authority was revoked): the export fails rather than wait. */
  final?: boolean;
}

/** A token over some bytes, with what checking it later needs when the authority's issuers gave it. */
export interface DocumentTimestamp {
  token: Uint8Array;
  /** The authority's certificates, DER base64, signer first. */
  chain?: string[];
  /** The chain's OCSP responses and CRLs (DER base64), when collected: a PDF then becomes PAdES B-LT and B-LTA. */
  validation?: { ocsp: string[]; crl: string[] } | null;
}

interface PdfInternals {
  _root: { data: Record<string, unknown> };
  page: { annotations: unknown[]; dictionary: unknown };
}

/**
 * Adds the empty document timestamp to a pdfkit document, while it is on its first page: the
 * signature dictionary, an invisible signature field on that page, and the form that lists it.
 */
export function addSealPlaceholder(doc: Pdf): void {
  const internals = doc as unknown as PdfInternals;
  const signature = doc.ref({
    Type: 'DocTimeStamp',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'ETSI.RFC3161',
    ByteRange: [0, BYTE_RANGE_PLACEHOLDER, BYTE_RANGE_PLACEHOLDER, BYTE_RANGE_PLACEHOLDER],
    Contents: new Uint8Array(CONTENTS_BYTES),
  });
  const widget = doc.ref({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    Rect: [0, 0, 0, 0],
    F: 132, // Print + Locked: invisible, and not to be changed by a form filler.
    T: new String('Document timestamp'),
    V: signature,
    P: internals.page.dictionary,
  });
  internals.page.annotations.push(widget);
  // pdfkit's form (it writes and ends it with the document), holding only this field. A form that
  // asks readers to redraw its fields would count as a change after sealing: it asks for none.
  doc.initForm();
  const form = internals._root.data.AcroForm as {
    data: { Fields: unknown[]; NeedAppearances?: boolean; SigFlags?: number };
  };
  delete form.data.NeedAppearances;
  form.data.SigFlags = 3; // SignaturesExist + AppendOnly
  form.data.Fields.push(widget);
  // pdfkit's types want a chunk; a dictionary object ends without one.
  for (const ref of [signature, widget] as unknown as { end(): void }[]) ref.end();
}

/**
 * Fills the placeholder of a finished PDF: the byte range around the token's hex string, then the
 * token over those bytes. Without a token, the placeholder is not filled and the caller keeps an
 * unsealed copy instead (a visible empty signature would look broken).
 */
export async function sealPdf(
  pdf: Buffer,
  timestamper: DocumentTimestamper,
): Promise<{ sealed: Buffer; stamp: DocumentTimestamp } | { problem: string }> {
  const rangeAt = pdf.lastIndexOf(PLACEHOLDER_TEXT, undefined, 'latin1');
  const contentsAt = pdf.indexOf(EMPTY_CONTENTS, rangeAt);
  if (rangeAt < 0 || contentsAt < 0) return { problem: 'The PDF has no place for a document timestamp.' };
  const contentsEnd = contentsAt + 2 + 2 * CONTENTS_BYTES;
  const range = [0, contentsAt, contentsEnd, pdf.length - contentsEnd];
  const written = `/ByteRange [${range.join(' ')}]`.padEnd(PLACEHOLDER_TEXT.length, ' ');
  const out = Buffer.from(pdf);
  out.write(written, rangeAt, 'latin1');
  const signed = Buffer.concat([out.subarray(0, contentsAt), out.subarray(contentsEnd)]);
  const answer = await timestamper(signed);
  if ('problem' in answer) return answer;
  if (answer.token.length > CONTENTS_BYTES)
    return {
      problem: `The authority's token (${answer.token.length} bytes) is larger than the room kept for it.`,
    };
  out.write(Buffer.from(answer.token).toString('hex'), contentsAt + 1, 'latin1');
  return { sealed: out, stamp: answer };
}

/**
 * PAdES B-LT then B-LTA: the seal's validation data in a /DSS, and a second document timestamp
 * over the whole file, DSS included (a second request). Without validation data, or when the
 * second token cannot be had, the PDF stays sealed as it was (B-T): it holds while its authority does.
 */
async function lastingSeal(
  first: Buffer,
  stamp: DocumentTimestamp,
  timestamper: DocumentTimestamper,
): Promise<Buffer> {
  if (!stamp.validation || !stamp.chain) return first;
  const updated = withValidationUpdate(first, { certificates: stamp.chain, ...stamp.validation });
  const archived = await sealPdf(updated, timestamper);
  return 'sealed' in archived ? archived.sealed : first;
}

/** What a PDF says of its own seal, in its footer: written before the seal exists, so rendered twice if it fails. */
export interface SealNote {
  /** Sealed on its own (a document timestamp), with its kit (the kit's one timestamp), or not at all. */
  by: 'itself' | 'kit' | 'none';
  placeholder: boolean;
  words: string;
}

export const SEALED_WORDS =
  'an RFC 3161 document timestamp covers every byte of it. Your PDF reader’s signature panel shows the seal, and a single changed byte breaks it.';

export const SEALED_WITH_KIT_WORDS =
  'its SHA-256 is listed in the kit’s META-INF/ASiCManifest.xml, which the kit’s one RFC 3161 timestamp (META-INF/timestamp.tst) covers; a single changed byte breaks it. The kit’s README shows how to check it. Taken out of the kit, this PDF carries no seal of its own.';

/** A PDF inside a kit that is sealed whole: it asks for no timestamp of its own. */
export const SEALED_WITH_ITS_KIT = 'kit';

/** A PDF saved unsealed because the person chose to: it says so. */
export const UNSEALED_BY_CHOICE = 'unsealed';

/** How a PDF is sealed: by a document timestamp of its own, as one file of a kit sealed whole, or not, by choice. */
export type Sealing = DocumentTimestamper | typeof SEALED_WITH_ITS_KIT | typeof UNSEALED_BY_CHOICE;

/**
 * A PDF sealed when an authority gives a token, else the same PDF unsealed and saying why. Never a
 * PDF with an empty or broken seal. A PDF of a sealed kit says how its kit seals it.
 */
export async function sealedPdf(
  render: (note: SealNote) => Promise<Buffer>,
  sealing: Sealing | undefined,
): Promise<Buffer> {
  if (sealing === SEALED_WITH_ITS_KIT)
    return render({ by: 'kit', placeholder: false, words: `Sealed with its kit: ${SEALED_WITH_KIT_WORDS}` });
  if (sealing === UNSEALED_BY_CHOICE)
    return render({ by: 'none', placeholder: false, words: 'Not sealed: it was saved unsealed, by choice.' });
  if (!sealing)
    return render({ by: 'none', placeholder: false, words: 'Not sealed: no timestamping authority is set.' });
  const result = await sealPdf(
    await render({ by: 'itself', placeholder: true, words: `Sealed: ${SEALED_WORDS}` }),
    sealing,
  );
  if ('sealed' in result) return lastingSeal(result.sealed, result.stamp, sealing);
  return render({ by: 'none', placeholder: false, words: `Not sealed: ${result.problem}` });
}
