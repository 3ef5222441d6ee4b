import type { Bound } from '../protocol/limits';
import { LIMITS } from '../protocol/limits';
import { boundedJson } from './bounded-json';
import type { SealBytes } from './pdf/certificate-pdf';
import { readCertificatePdf } from './pdf/certificate-pdf';
import type { BoundedInflate } from './pdf/pdf-document';

export { isOurReceipt } from './pdf/certificate-pdf';
export type { BoundedInflate } from './pdf/pdf-document';

const latin1 = new TextDecoder('latin1');

export type ProofRead =
  /** `pdf`: the receipt came out of a certificate, whose seal (if any) is `seal`. */
  | { json: unknown; pdf: boolean; seal: SealBytes | null }
  | { missing: 'pdf_without_receipt' | 'pdf_unreadable' | 'ambiguous' | 'not_json' }
  | { refused: Bound };

/**
 * What a proof file holds, whichever it is: a certificate (the receipt attached to it, and its
 * seal) or a receipt (its JSON, for the verifier to judge); or why there is nothing to check. Read
 * within the bounds of protocol/limits.ts: a file larger than any proof is refused, not read.
 */
export async function readProofBytes(bytes: Uint8Array, inflate: BoundedInflate): Promise<ProofRead> {
  if (isPdf(bytes)) {
    if (bytes.length > LIMITS.pdfBytes) return { refused: 'pdfBytes' };
    const read = await readCertificatePdf(bytes, inflate);
    if ('receipt' in read) return { json: read.receipt, pdf: true, seal: read.seal };
    if ('refused' in read) return read;
    return {
      missing:
        read.missing === 'ambiguous'
          ? 'ambiguous'
          : read.missing === 'unreadable'
            ? 'pdf_unreadable'
            : 'pdf_without_receipt',
    };
  }
  const read = boundedJson(bytes);
  if (read === undefined) return { missing: 'not_json' };
  return 'refused' in read ? read : { json: read.json, pdf: false, seal: null };
}

/** Why a proof file holds no receipt to check, after its name: the same words in every verifier. */
export const NO_RECEIPT_WORDS: Record<Extract<ProofRead, { missing: unknown }>['missing'], string> = {
  pdf_without_receipt:
    'is a PDF, but it carries no Evidence Desk receipt: use the certificate Evidence Desk saved, or its .receipt.json.',
  pdf_unreadable:
    'is a PDF whose structure cannot be read here (it may have been re-saved by another program): use its .receipt.json.',
  ambiguous: 'carries more than one receipt, so which one it certifies is ambiguous: it is refused.',
  not_json: 'is neither an Evidence Desk receipt nor a certificate that carries one.',
};

export const isPdf = (bytes: Uint8Array): boolean => latin1.decode(bytes.subarray(0, 5)) === '%PDF-';

/** The most a proof file can be, by its first bytes: what a reader reads of it at most. */
export const proofBytesAtMost = (head: Uint8Array): number =>
  isPdf(head) ? LIMITS.pdfBytes : LIMITS.receiptBytes;
