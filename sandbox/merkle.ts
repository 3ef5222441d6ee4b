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

/**
 * Where a log keeps the hash of each complete subtree: at `level` L, `position` p, the subtree of
 * leaves [p·2^L, (p+1)·2^L). Level 0 holds the leaf hashes.
 */
export interface LogNodes {
  get(level: number, position: number): Buffer | undefined;
  put(level: number, position: number, hash: Buffer): void;
}

/** Nodes in memory: for a tree built once (and for tests). */
export function nodesInMemory(): LogNodes {
  const nodes = new Map<string, Buffer>();
  return {
    get: (level, position) => nodes.get(`${level}:${position}`),
    put: (level, position, hash) => void nodes.set(`${level}:${position}`, hash),
  };
}

/**
 * An append-only RFC 6962 log over its complete subtrees. Appending a leaf completes at most one
 * subtree per level above it, and a root, an audit path or a consistency proof needs O(log n) of
 * them: anchoring a batch costs the batch, not the log (rebuilding the whole tree for each batch
 * made every batch of a log of a million read and hash a million leaves).
 *
 * The hashes it reads or computes are kept while it lives: make one per transaction (a batch rolled
 * back would otherwise leave its nodes known here).
 */
export class MerkleLog {
  private readonly known = new Map<string, Buffer>();

  constructor(private readonly nodes: LogNodes) {}

  /** Adds `hashes` as leaves `size`, `size + 1`, … of a log of `size` leaves. */
  append(size: number, hashes: readonly Buffer[]): void {
    hashes.forEach((hash, offset) => {
      let position = size + offset;
      let node = hash;
      this.nodes.put(0, position, node);
      // A right child completes its parent.
      for (let level = 0; position % 2 === 1; level++, position = (position - 1) / 2) {
        node = nodeHash(this.complete(level, position - 1), node);
        this.nodes.put(level + 1, (position - 1) / 2, node);
      }
    });
  }

  rootHash(size: number): Buffer {
    if (size < 1) throw new Error('An empty log has no tree to prove against');
    return this.subtree(0, size);
  }

  /** The audit path (RFC 6962 §2.1.1 PATH(m, D[n])) of the leaf at `index` in the tree of `size`, bottom up. */
  inclusionProof(index: number, size: number): Buffer[] {
    if (!Number.isInteger(index) || index < 0 || index >= size)
      throw new RangeError(`Leaf ${index} is outside a tree of ${size}`);
    const path = (start: number, end: number): Buffer[] => {
      if (end - start === 1) return [];
      const k = largestPowerOfTwoBelow(end - start);
      return index < start + k
        ? [...path(start, start + k), this.subtree(start + k, end)]
        : [...path(start + k, end), this.subtree(start, start + k)];
    };
    return path(0, size);
  }

  /**
   * The consistency proof between the tree of the first `first` leaves and the tree of `size`
   * (RFC 6962 §2.1.2 PROOF(m, D[n])): what lets a client holding an older tree head check that the
   * log only grew.
   */
  consistencyProof(first: number, size: number): Buffer[] {
    if (first < 1 || first > size) throw new RangeError(`No tree of ${first} leaves to prove from`);
    const subproof = (m: number, start: number, end: number, complete: boolean): Buffer[] => {
      if (m === end - start) return complete ? [] : [this.subtree(start, end)];
      const k = largestPowerOfTwoBelow(end - start);
      if (m <= k) return [...subproof(m, start, start + k, complete), this.subtree(start + k, end)];
      return [...subproof(m - k, start + k, end, false), this.subtree(start, start + k)];
    };
    return subproof(first, 0, size, true);
  }

  /**
   * MTH(D[start:end]) (RFC 6962 §2.1). Every range the RFC's split reaches is a complete subtree or
   * one whose left part is: its left part starts where a subtree of that size would.
   */
  private subtree(start: number, end: number): Buffer {
    const n = end - start;
    const level = Math.log2(n);
    if (Number.isInteger(level) && start % n === 0) return this.complete(level, start / n);
    const key = `${start}-${end}`;
    const known = this.known.get(key);
    if (known) return known;
    const k = largestPowerOfTwoBelow(n);
    const hash = nodeHash(this.subtree(start, start + k), this.subtree(start + k, end));
    this.known.set(key, hash);
    return hash;
  }

  private complete(level: number, position: number): Buffer {
    const key = `${level}:${position}`;
    const known = this.known.get(key);
    if (known) return known;
    const hash = this.nodes.get(level, position);
    if (!hash) throw new Error(`The log has no subtree ${key}`);
    this.known.set(key, hash);
    return hash;
  }
}

/** The log of these leaf hashes, built in memory. */
export function logOf(leafHashes: readonly Buffer[]): MerkleLog {
  const log = new MerkleLog(nodesInMemory());
  log.append(0, leafHashes);
  return log;
}

function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}
