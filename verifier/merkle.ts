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

/** One step of a path: the sibling hash and its side, so anyone can fold it by hand (kit README). */
export interface SidedStep {
  side: 'left' | 'right';
  hash: Uint8Array;
}

/**
 * A batch's Merkle tree over its files' SHA-256s (RFC 6962 hashing, leaf = SHA-256(0x00 ‖ hash)):
 * its root, and for each file the path to it. Recursion splits at the largest power of two below
 * the size, exactly as RFC 6962 §2.1 defines the tree.
 */
export function batchTree(fileHashes: readonly Uint8Array[]): { root: Uint8Array; paths: SidedStep[][] } {
  if (fileHashes.length === 0) throw new RangeError('A batch tree needs at least one hash.');
  const paths: SidedStep[][] = fileHashes.map(() => []);
  const build = (from: number, to: number): Uint8Array => {
    if (to - from === 1) return merkleLeafHash(fileHashes[from] as Uint8Array);
    let split = 1;
    while (split * 2 < to - from) split *= 2;
    const left = build(from, from + split);
    const right = build(from + split, to);
    for (let i = from; i < from + split; i++) paths[i]?.push({ side: 'right', hash: right });
    for (let i = from + split; i < to; i++) paths[i]?.push({ side: 'left', hash: left });
    return nodeHash(left, right);
  };
  return { root: build(0, fileHashes.length), paths };
}

/** Folds a sided path from a file's SHA-256 up to the root it leads to. */
export function rootFromSidedPath(fileHash: Uint8Array, path: readonly SidedStep[]): Uint8Array {
  let node = merkleLeafHash(fileHash);
  for (const step of path)
    node = step.side === 'left' ? nodeHash(step.hash, node) : nodeHash(node, step.hash);
  return node;
}
