import { z } from 'zod';
import {
  base64ToBytes,
  bytesToHex,
  concatBytes,
  hexToBytes,
  isCanonicalBase64,
  logKeyFingerprint,
  uint64,
  utf8ToBytes,
} from './bytes';
import { merkleLeafHash, rootFromInclusionProof } from './merkle';
import type { Ed25519Verify } from './signature';
import { SANDBOX_LEAF_ENVIRONMENT } from '../protocol/receipt';
import { nobleEd25519Verify } from './signature';

/** The evidence format the sandbox issues (docs/api.md, "Evidence"). */
export const SANDBOX_EVIDENCE_FORMAT = 'rfc6962-merkle-inclusion/v1';

const hex32 = z.string().regex(/^[0-9a-f]{64}$/, 'a 32-byte hash in lower-case hex');
const count = z.number().int().nonnegative();

const evidenceSchema = z.object({
  format: z.literal(SANDBOX_EVIDENCE_FORMAT),
  log_key_id: hex32.optional(),
  leaf_input: z.string(),
  leaf_hash: hex32,
  leaf_index: count,
  tree_size: count.min(1),
  inclusion_proof: z.array(hex32).max(64),
  root_hash: hex32,
  signed_tree_head: z.object({
    tree_size: count.min(1),
    timestamp: count,
    root_hash: hex32,
    signature: z.string().min(1),
    key_id: hex32.optional(),
  }),
});

const leafSchema = z.object({ certification_id: z.string(), asset_hash: z.string() });

export type EvidenceFailure =
  | 'evidence_unreadable'
  | 'leaf_hash_mismatch'
  | 'asset_hash_mismatch'
  | 'certification_mismatch'
  | 'inclusion_proof_invalid'
  | 'tree_head_mismatch'
  | 'tree_head_signature_invalid'
  | 'key_id_mismatch';

export type EvidenceVerdict =
  | {
      verified: true;
      leafIndex: number;
      treeSize: number;
      rootHash: string;
      treeHeadTimestamp: number;
      /** The leaf's bytes, as UTF-8 text: what the log signed about the certification. */
      leafInput: string;
    }
  | { verified: false; code: EvidenceFailure; message: string };

export interface EvidenceExpectation {
  /** The SHA-256 of the file, hex: the evidence must be about this asset. */
  assetHash: string;
  /** The service's id for the certification, when known. */
  certificationId?: string;
  /** The log's Ed25519 public key, as base64 SubjectPublicKeyInfo DER (pinned per environment). */
  logPublicKey: string;
  /** How signatures are checked: noble's pure JS unless a faster native check is given. */
  verifyEd25519?: Ed25519Verify;
}

/**
 * Checks sandbox evidence offline: the leaf commits to this asset, the inclusion proof leads
 * from the leaf to the root, and the root is the one the log signed with its pinned key.
 */
export function verifySandboxEvidence(evidence: unknown, expect: EvidenceExpectation): EvidenceVerdict {
  const parsed = evidenceSchema.safeParse(evidence);
  if (!parsed.success)
    return fail(
      'evidence_unreadable',
      `The evidence is not in the ${SANDBOX_EVIDENCE_FORMAT} format: ${z.prettifyError(parsed.error)}`,
    );
  const e = parsed.data;

  const leafHash = merkleLeafHash(utf8ToBytes(e.leaf_input));
  if (bytesToHex(leafHash) !== e.leaf_hash)
    return fail('leaf_hash_mismatch', 'The leaf hash does not match the leaf it claims to hash.');
  const leaf = leafSchema.safeParse(safeJson(e.leaf_input));
  if (!leaf.success)
    return fail('evidence_unreadable', 'The evidence leaf does not name a certification and an asset hash.');
  if (leaf.data.asset_hash !== expect.assetHash.toLowerCase()) {
    return fail('asset_hash_mismatch', 'The evidence is about a different file (its asset hash differs).');
  }
  if (expect.certificationId !== undefined && leaf.data.certification_id !== expect.certificationId) {
    return fail('certification_mismatch', 'The evidence belongs to a different certification.');
  }

  const proof = e.inclusion_proof.map((node) => hexToBytes(node));
  const root = rootFromInclusionProof(leafHash, e.leaf_index, e.tree_size, proof);
  if (!root || bytesToHex(root) !== e.root_hash) {
    return fail(
      'inclusion_proof_invalid',
      'The inclusion proof does not lead from this leaf to the log root.',
    );
  }

  const head = e.signed_tree_head;
  if (head.tree_size !== e.tree_size || head.root_hash !== e.root_hash) {
    return fail('tree_head_mismatch', 'The signed tree head is for a different tree than the proof.');
  }
  // The key the evidence names must be the key it is checked with: a changed key id is a changed receipt.
  const keyId = logKeyFingerprint(expect.logPublicKey);
  if (
    (e.log_key_id !== undefined && e.log_key_id !== keyId) ||
    (head.key_id !== undefined && head.key_id !== keyId)
  ) {
    return fail('key_id_mismatch', 'The evidence names a different log key than the one it is checked with.');
  }
  const check = expect.verifyEd25519 ?? nobleEd25519Verify;
  if (!signatureHolds(check, head.timestamp, head.tree_size, root, head.signature, expect.logPublicKey)) {
    return fail('tree_head_signature_invalid', 'The tree head is not signed by the pinned log key.');
  }
  return {
    verified: true,
    leafIndex: e.leaf_index,
    treeSize: e.tree_size,
    rootHash: e.root_hash,
    treeHeadTimestamp: head.timestamp,
    leafInput: e.leaf_input,
  };
}

// RFC 6962 §3.5 TreeHeadSignature: version v1 (0), signature_type tree_hash (1), timestamp, tree_size, root.
function treeHeadSignedBytes(timestamp: number, treeSize: number, root: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(0, 1), uint64(timestamp), uint64(treeSize), root);
}

function signatureHolds(
  check: Ed25519Verify,
  timestamp: number,
  treeSize: number,
  root: Uint8Array,
  signature: string,
  publicKeyDer: string,
): boolean {
  // Strict base64: a lenient decoder ignores stray characters and bad padding, so an altered signature would pass.
  if (!isCanonicalBase64(signature) || !isCanonicalBase64(publicKeyDer)) return false;
  return check(
    base64ToBytes(publicKeyDer),
    treeHeadSignedBytes(timestamp, treeSize, root),
    base64ToBytes(signature),
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const fail = (code: EvidenceFailure, message: string): EvidenceVerdict => ({
  verified: false,
  code,
  message,
});

export interface LogPosition {
  leafIndex: number;
  treeSize: number;
  rootHash: string;
  treeHeadTimestamp: number;
}

/** Where evidence in the sandbox's format places a certification in the log; null for any other format. */
export function logPosition(evidence: unknown): LogPosition | null {
  const parsed = evidenceSchema.safeParse(evidence);
  if (!parsed.success) return null;
  const e = parsed.data;
  return {
    leafIndex: e.leaf_index,
    treeSize: e.tree_size,
    rootHash: e.root_hash,
    treeHeadTimestamp: e.signed_tree_head.timestamp,
  };
}

/**
 * The times the log signed in evidence of this format: the leaf's certified_at (as written, when
 * it is a time) and the signed tree head's time (ISO 8601 to the millisecond); null where there is
 * none. Signed facts only once the evidence is checked and holds: the caller says whether it does.
 */
export function loggedTimes(evidence: unknown): { certifiedAt: string | null; treeHeadAt: string | null } {
  const position = logPosition(evidence);
  if (!position) return { certifiedAt: null, treeHeadAt: null };
  return {
    certifiedAt: leafCertifiedAt((evidence as { leaf_input: string }).leaf_input),
    treeHeadAt: new Date(position.treeHeadTimestamp).toISOString(),
  };
}

/** Whether the leaf in this evidence says it was signed by a sandbox (docs/api.md): such a receipt is DEMO. */
export function signedBySandbox(evidence: unknown): boolean {
  if (!logPosition(evidence)) return false;
  try {
    const leaf = JSON.parse((evidence as { leaf_input: string }).leaf_input) as { environment?: unknown };
    return leaf.environment === SANDBOX_LEAF_ENVIRONMENT;
  } catch {
    return false;
  }
}

function leafCertifiedAt(leafInput: string): string | null {
  try {
    const leaf = JSON.parse(leafInput) as { certified_at?: unknown };
    return typeof leaf.certified_at === 'string' && Number.isFinite(Date.parse(leaf.certified_at))
      ? leaf.certified_at
      : null;
  } catch {
    return null;
  }
}
