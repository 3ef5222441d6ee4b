import { createHash, createPublicKey, verify } from 'node:crypto';
import { z } from 'zod';
import { merkleLeafHash, rootFromInclusionProof } from './merkle-inclusion';

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
  | { verified: true; leafIndex: number; treeSize: number; rootHash: string; treeHeadTimestamp: number }
  | { verified: false; code: EvidenceFailure; message: string };

export interface EvidenceExpectation {
  /** The SHA-256 of the file, hex: the evidence must be about this asset. */
  assetHash: string;
  /** The service's id for the certification, when known. */
  certificationId?: string;
  /** The log's Ed25519 public key, as base64 SubjectPublicKeyInfo DER (pinned per environment). */
  logPublicKey: string;
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

  const leafHash = merkleLeafHash(Buffer.from(e.leaf_input, 'utf8'));
  if (leafHash.toString('hex') !== e.leaf_hash)
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

  const proof = e.inclusion_proof.map((node) => Buffer.from(node, 'hex'));
  const root = rootFromInclusionProof(leafHash, e.leaf_index, e.tree_size, proof);
  if (!root || root.toString('hex') !== e.root_hash) {
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
  if (!signatureHolds(head.timestamp, head.tree_size, root, head.signature, expect.logPublicKey)) {
    return fail('tree_head_signature_invalid', 'The tree head is not signed by the pinned log key.');
  }
  return {
    verified: true,
    leafIndex: e.leaf_index,
    treeSize: e.tree_size,
    rootHash: e.root_hash,
    treeHeadTimestamp: head.timestamp,
  };
}

// RFC 6962 §3.5 TreeHeadSignature: version v1 (0), signature_type tree_hash (1), timestamp, tree_size, root.
function signatureHolds(
  timestamp: number,
  treeSize: number,
  root: Buffer,
  signature: string,
  publicKeyDer: string,
): boolean {
  const signed = Buffer.concat([Buffer.from([0, 1]), uint64(timestamp), uint64(treeSize), root]);
  // Strict base64: Node ignores stray characters and bad padding, so a non-canonical signature would pass.
  if (!isCanonicalBase64(signature)) return false;
  try {
    const key = createPublicKey({ key: Buffer.from(publicKeyDer, 'base64'), format: 'der', type: 'spki' });
    return verify(null, signed, key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** The log key's fingerprint (and the sandbox's key id): SHA-256 of its SubjectPublicKeyInfo DER, hex. */
export function logKeyFingerprint(publicKeyDer: string): string {
  return createHash('sha256').update(Buffer.from(publicKeyDer, 'base64')).digest('hex');
}

export function isCanonicalBase64(text: string): boolean {
  return /^[A-Za-z0-9+/]*={0,2}$/.test(text) && Buffer.from(text, 'base64').toString('base64') === text;
}

function uint64(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
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
