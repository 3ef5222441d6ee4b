import { z } from 'zod';
import type { ReceiptVerdict } from '../protocol/receipt';
import { receiptSchema } from '../protocol/receipt';
import { isCanonicalBase64, logKeyFingerprint } from './bytes';
import type { EvidenceFailure } from './sandbox-evidence';
import { verifySandboxEvidence } from './sandbox-evidence';
import type { Ed25519Verify } from './signature';

const CHECK_OF: Record<EvidenceFailure, Extract<ReceiptVerdict, { verdict: 'receipt_invalid' }>['check']> = {
  evidence_unreadable: 'format',
  leaf_hash_mismatch: 'leaf',
  asset_hash_mismatch: 'leaf',
  certification_mismatch: 'leaf',
  inclusion_proof_invalid: 'proof',
  tree_head_mismatch: 'root',
  tree_head_signature_invalid: 'signature',
  key_id_mismatch: 'key_id',
};

/**
 * Checks a document against a receipt, offline, with nothing but the two: is this the certified
 * file, does the receipt hold together (leaf, proof, root, key id, signature), and is its log key
 * one we trust (`trustedFingerprints`: the key pinned for this profile, or given by the user).
 */
export function verifyReceipt(
  fileSha256: string,
  receiptJson: unknown,
  trustedFingerprints: readonly string[],
  verifyEd25519?: Ed25519Verify,
): ReceiptVerdict {
  const parsed = receiptSchema.safeParse(receiptJson);
  if (!parsed.success)
    return {
      verdict: 'receipt_invalid',
      check: 'format',
      message: `This is not an Evidence Desk receipt this version can read: ${z.prettifyError(parsed.error)}`,
    };
  const receipt = parsed.data;
  const certifiedAt = receipt.certification.certified_at;
  if (receipt.file.sha256 !== fileSha256.toLowerCase())
    return {
      verdict: 'content_differs',
      message: `This is not the certified file: the receipt is for "${receipt.file.name}" (SHA-256 ${receipt.file.sha256}), certified ${certifiedAt}, and this file's content is different.`,
      certified: { file: receipt.file.name, sha256: receipt.file.sha256, certifiedAt },
    };
  if (
    receipt.certification.state !== 'anchored' ||
    receipt.evidence === null ||
    receipt.evidence === undefined
  )
    return {
      verdict: 'not_anchored',
      message: `The receipt matches this file, but the certification was not anchored when the receipt was made (${receipt.certification.state}); it cannot be checked yet.`,
    };
  const key = receipt.log_key;
  if (!key)
    return {
      verdict: 'receipt_invalid',
      check: 'key_id',
      message: 'The receipt does not include the log key to check it with.',
    };
  if (!isCanonicalBase64(key.public_key) || logKeyFingerprint(key.public_key) !== key.fingerprint)
    return {
      verdict: 'receipt_invalid',
      check: 'key_id',
      message: 'The log key in the receipt does not match its own fingerprint: the receipt was altered.',
    };
  const check = verifySandboxEvidence(receipt.evidence, {
    assetHash: fileSha256,
    certificationId: receipt.certification.certification_id ?? undefined,
    logPublicKey: key.public_key,
    verifyEd25519,
  });
  if (!check.verified)
    return {
      verdict: 'receipt_invalid',
      check: CHECK_OF[check.code],
      message: `The receipt was altered or damaged: ${check.message}`,
    };
  if (!trustedFingerprints.includes(key.fingerprint))
    return {
      verdict: 'untrusted_key',
      keyFingerprint: key.fingerprint,
      message: `The receipt is consistent, but it was signed by a log key this computer does not trust (fingerprint ${key.fingerprint}). Compare that fingerprint with the one the service publishes; if they match, check again trusting it.`,
    };
  return {
    verdict: 'verified',
    file: receipt.file.name,
    certifiedAt,
    anchoredAt: receipt.certification.anchored_at,
    demo: receipt.demo,
    keyFingerprint: key.fingerprint,
    message: `This is exactly the file certified as "${receipt.file.name}" on ${certifiedAt}, anchored ${receipt.certification.anchored_at ?? 'in the log'} (entry ${check.leafIndex + 1} of ${check.treeSize}), signed by the trusted log key ${key.fingerprint.slice(0, 16)}….`,
  };
}

/** Each verdict's headline: the first thing the CLI, the app and verify.html say. */
export const VERDICT_HEADLINES: Record<ReceiptVerdict['verdict'], string> = {
  verified: 'Verified: this is the certified document',
  content_differs: 'Not the certified document',
  receipt_invalid: 'The proof does not hold together',
  untrusted_key: 'Consistent, but signed by a log key you have not trusted',
  not_anchored: 'Not verifiable yet: the certification was not anchored',
};

/** Said with every verdict on a sandbox's certification. */
export const DEMO_VERDICT_NOTICE =
  'DEMO: this certification was made on a sandbox. Its cryptography is real, but it carries no legal weight.';
