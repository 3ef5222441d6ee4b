import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ReceiptVerdict, SealVerdict } from '../../protocol/receipt';
import type { Trust } from '../../verifier/verify-receipt';
import { refusedReceipt, verifyReceipt } from '../../verifier/verify-receipt';
import { checkSeal } from '../../verifier/pdf/seal-check';
import { nodeEd25519Verify } from '../tools/native-signature';
import { readProof } from './read-proof';
import { NO_RECEIPT_WORDS } from '../../verifier/pdf-attachment';

export interface ProofVerification {
  verdict: ReceiptVerdict;
  /** Signed as made on a sandbox (or said so by the receipt): each shell says DEMO with the verdict. */
  demo: boolean;
  /** A certificate PDF's own seal; null for a receipt file. */
  seal: SealVerdict | null;
}

/** Checks a document's hash against a receipt or certificate file, with the keys and roots trusted here. */
export async function checkAgainstProof(
  sha256: string,
  proofPath: string,
  trust: Trust,
  /** The document itself: its SHA-512 is read only if its evidence record was renewed to that hash. */
  documentPath?: string,
): Promise<ProofVerification> {
  const proof = await readProof(proofPath);
  if ('refused' in proof) return { verdict: refusedReceipt(proof.refused), demo: false, seal: null };
  if (!('json' in proof)) return { verdict: unreadableProof(proofPath, proof), demo: false, seal: null };
  const verdict = await verifyReceipt(
    sha256,
    proof.json,
    trust,
    nodeEd25519Verify,
    documentPath === undefined ? undefined : () => sha512OfFile(documentPath),
  );
  // What was signed decides DEMO; a receipt that only claims it is still shown as DEMO.
  const demo =
    verdict.verdict === 'verified' ? verdict.demo : (proof.json as { demo?: unknown } | null)?.demo === true;
  return { verdict, demo, seal: proof.pdf ? await checkSeal(proof.seal, trust.tsaRoots) : null };
}

async function sha512OfFile(path: string): Promise<Uint8Array> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return new Uint8Array(hash.digest());
}

function unreadableProof(
  path: string,
  proof:
    { unreadable: string } | { missing: 'pdf_without_receipt' | 'pdf_unreadable' | 'ambiguous' | 'not_json' },
): ReceiptVerdict {
  if ('unreadable' in proof)
    return { verdict: 'receipt_invalid', check: 'format', message: proof.unreadable };
  const message = `${path} ${NO_RECEIPT_WORDS[proof.missing]}`;
  return {
    verdict: 'receipt_invalid',
    check: proof.missing === 'ambiguous' ? 'ambiguous' : 'format',
    message,
  };
}
