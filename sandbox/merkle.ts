import { createHash } from 'node:crypto';

// RFC 6962 §2.1 hashing: the prefixes keep a leaf from ever being mistaken for an inner node.
const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

export function leafHash(leafInput: Buffer): Buffer {
  return createHash('sha256').update(LEAF_PREFIX).update(leafInput).digest();
}

function nodeHash(left: Buffer, right: Buffer): Buffer {
  return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();
}

export interface TreeSnapshot {
  rootHash: Buffer;
  /** The audit path (RFC 6962 §2.1.1) of the leaf at `index`, bottom up. */
  inclusionProof(index: number): Buffer[];
}

/**
 * Builds the tree bottom up. Pairing neighbours level by level and lifting an unpaired last node
 * unchanged gives exactly RFC 6962's tree (split at the largest power of two below n), and lets
 * every proof be read off in O(log n) once the O(n) levels exist — a batch of thousands stays cheap.
 */
export function buildTree(leafHashes: readonly Buffer[]): TreeSnapshot {
  if (leafHashes.length === 0) throw new Error('An empty log has no tree to prove against');
  const levels: Buffer[][] = [leafHashes.slice()];
  for (let level = levels[0] as Buffer[]; level.length > 1;) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Buffer;
      const right = level[i + 1];
      next.push(right ? nodeHash(left, right) : left);
    }
    levels.push(next);
    level = next;
  }
  return {
    rootHash: (levels[levels.length - 1] as Buffer[])[0] as Buffer,
    inclusionProof(index: number): Buffer[] {
      if (!Number.isInteger(index) || index < 0 || index >= leafHashes.length) {
        throw new RangeError(`Leaf ${index} is outside a tree of ${leafHashes.length}`);
      }
      const path: Buffer[] = [];
      let position = index;
      for (const level of levels.slice(0, -1)) {
        const sibling = position % 2 === 1 ? level[position - 1] : level[position + 1];
        if (sibling) path.push(sibling);
        position = Math.floor(position / 2);
      }
      return path;
    },
  };
}

/** MTH over leaves [start, end) (RFC 6962 §2.1). */
function rangeHash(leafHashes: readonly Buffer[], start: number, end: number): Buffer {
  if (end - start === 1) return leafHashes[start] as Buffer;
  const k = largestPowerOfTwoBelow(end - start);
  return nodeHash(rangeHash(leafHashes, start, start + k), rangeHash(leafHashes, start + k, end));
}

function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The consistency proof between the tree of the first `first` leaves and the tree of all
 * `leafHashes` (RFC 6962 §2.1.2 PROOF(m, D[n])): what lets a client holding an older tree head
 * check that the log only grew.
 */
export function consistencyProof(leafHashes: readonly Buffer[], first: number): Buffer[] {
  const subproof = (m: number, start: number, end: number, complete: boolean): Buffer[] => {
    const n = end - start;
    if (m === n) return complete ? [] : [rangeHash(leafHashes, start, end)];
    const k = largestPowerOfTwoBelow(n);
    if (m <= k) return [...subproof(m, start, start + k, complete), rangeHash(leafHashes, start + k, end)];
    return [...subproof(m - k, start + k, end, false), rangeHash(leafHashes, start, start + k)];
  };
  if (first < 1 || first > leafHashes.length)
    throw new RangeError(`No tree of ${first} leaves to prove from`);
  return subproof(first, 0, leafHashes.length, true);
}
