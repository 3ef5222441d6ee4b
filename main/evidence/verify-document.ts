import type { ReceiptVerdict } from '../../protocol/receipt';
import type { Trust } from '../../verifier/verify-receipt';
import { DEMO_VERDICT_NOTICE, VERDICT_HEADLINES, verifyReceipt } from '../../verifier/verify-receipt';
import { nodeEd25519Verify } from './native-signature';
import { readProof } from './read-proof';

export interface ProofVerification {
  verdict: ReceiptVerdict;
  headline: string;
  /** Said with the verdict when the certification was made on a sandbox. */
  demoNotice: string | null;
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
  return {
    verdict,
    headline: VERDICT_HEADLINES[verdict.verdict],
    demoNotice: demo ? DEMO_VERDICT_NOTICE : null,
  };
}
