import type { ReceiptVerdict } from '../../protocol/receipt';
import type { Trust } from '../../verifier/verify-receipt';
import { verifyReceipt } from '../../verifier/verify-receipt';
import { nodeEd25519Verify } from './native-signature';
import { readProof } from './read-proof';

export interface ProofVerification {
  verdict: ReceiptVerdict;
  /** The receipt says it was made on a sandbox: each shell says DEMO with the verdict, in its words. */
  demo: boolean;
}

/** Checks a document's hash against a receipt or certificate file, with the keys and roots trusted here. */
export async function checkAgainstProof(
  sha256: string,
  proofPath: string,
  trust: Trust,
): Promise<ProofVerification> {
  const proof = await readProof(proofPath);
  const verdict: ReceiptVerdict =
    'unreadable' in proof
      ? { verdict: 'receipt_invalid', check: 'format', message: proof.unreadable }
      : await verifyReceipt(sha256, proof.json, trust, nodeEd25519Verify);
  const demo = 'json' in proof && (proof.json as { demo?: unknown } | null)?.demo === true;
  return { verdict, demo };
}
