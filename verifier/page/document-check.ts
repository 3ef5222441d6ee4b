import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Receipt, ReceiptVerdict, SealVerdict } from '../../protocol/receipt';
import type { Bound } from '../../protocol/limits';
import { LimitExceeded } from '../../protocol/limits';
import type { ProofRead } from '../pdf-attachment';
import { isOurReceipt, isPdf, proofBytesAtMost, readProofBytes } from '../pdf-attachment';
import { checkSeal } from '../pdf/seal-check';
import type { Trust } from '../verify-receipt';
import { verifyReceipt } from '../verify-receipt';

/**
 * verify.html's check of one document against its receipt or certificate: the heavy part (hashing,
 * reading the PDF, the signatures), run in the page's worker so the page never freezes.
 */
const CHUNK = 8 * 1024 * 1024;

export type DocumentOutcome =
  | { refused: Bound }
  | { missing: Extract<ProofRead, { missing: unknown }>['missing'] }
  | {
      verdict: ReceiptVerdict;
      seal: SealVerdict | null;
      demo: boolean;
      documentHash: string;
      receipt: Receipt;
    };

/** Inflates up to `maxBytes`, stopping there: a flate bomb is refused, not expanded. */
async function inflate(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart])
    .stream()
    .pipeThrough(new DecompressionStream('deflate'))
    .getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.length;
      if (size > maxBytes) {
        void reader.cancel();
        throw new LimitExceeded('receiptBytes');
      }
      chunks.push(read.value);
    }
  } catch (error) {
    if (error instanceof LimitExceeded) throw error;
    return new Uint8Array(0);
  }
  const out = new Uint8Array(size);
  chunks.reduce((at, chunk) => (out.set(chunk, at), at + chunk.length), 0);
  return out;
}

/**
 * What a proof file holds: a receipt (and a certificate's seal), or why there is none. A file
 * larger than any proof is refused by its size: only the bytes a proof can have are read.
 */
export async function readProof(file: Blob): Promise<ProofRead> {
  const head = new Uint8Array(await file.slice(0, 5).arrayBuffer());
  if (file.size > proofBytesAtMost(head)) return { refused: isPdf(head) ? 'pdfBytes' : 'receiptBytes' };
  const read = await readProofBytes(new Uint8Array(await file.arrayBuffer()), inflate);
  return 'json' in read && !isOurReceipt(read.json) ? { missing: 'not_json' } : read;
}

/** SHA-256 of a file of any size, read in chunks, with progress. */
async function hashFile(file: Blob, onProgress: (done: number) => void): Promise<string> {
  const hash = sha256.create();
  for (let offset = 0; offset < file.size; offset += CHUNK) {
    hash.update(new Uint8Array(await file.slice(offset, offset + CHUNK).arrayBuffer()));
    onProgress(Math.min(1, (offset + CHUNK) / file.size));
  }
  return bytesToHex(hash.digest());
}

/** SHA-512 of a file, read again in chunks: needed only for a record renewed to that hash. */
async function sha512Of(file: Blob): Promise<Uint8Array> {
  const hash = sha512.create();
  for (let offset = 0; offset < file.size; offset += CHUNK)
    hash.update(new Uint8Array(await file.slice(offset, offset + CHUNK).arrayBuffer()));
  return hash.digest();
}

export async function checkDocument(
  document: Blob,
  proofFile: Blob,
  trust: Trust,
  onProgress: (done: number) => void,
): Promise<DocumentOutcome> {
  const proof = await readProof(proofFile);
  if (!('json' in proof)) return proof;
  const documentHash = await hashFile(document, onProgress);
  const verdict = await verifyReceipt(documentHash, proof.json, trust, undefined, () => sha512Of(document));
  const seal = proof.pdf ? await checkSeal(proof.seal, trust.tsaRoots) : null;
  const receipt = proof.json as Receipt;
  // DEMO as signed (or claimed by the receipt, which may add it but not take it away).
  const demo = verdict.verdict === 'verified' ? verdict.demo : receipt.demo === true;
  return { verdict, seal, demo, documentHash, receipt };
}
