import { concatBytes, sha256 } from './bytes';

const LEAF = Uint8Array.of(0x00);
const NODE = Uint8Array.of(0x01);

/**
 * Recomputes a Merkle tree root from a leaf hash and its audit path, following the
 * verification algorithm of RFC 9162 §2.1.3.2 for RFC 6962 trees. Returns undefined when
 * the path cannot belong to a tree of that size (too long, too short, index out of range).
 */
export function rootFromInclusionProof(
  leafHash: Uint8Array,
  leafIndex: number,
  treeSize: number,
  proof: readonly Uint8Array[],
): Uint8Array | undefined {
  if (
    !Number.isSafeInteger(leafIndex) ||
    !Number.isSafeInteger(treeSize) ||
    leafIndex < 0 ||
    leafIndex >= treeSize
  ) {
    return undefined;
  }
  // BigInt keeps the bit arithmetic exact past 2^31 leaves.
  let fn = BigInt(leafIndex);
  let sn = BigInt(treeSize - 1);
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0n) return undefined;
    if ((fn & 1n) === 1n || fn === sn) {
      r = nodeHash(p, r);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n ? r : undefined;
}

export function merkleLeafHash(leafInput: Uint8Array): Uint8Array {
  return sha256(concatBytes(LEAF, leafInput));
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(concatBytes(NODE, left, right));
}
