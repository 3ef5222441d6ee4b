import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { concatBytes } from '../bytes';

/*
 * RFC 4998 hash trees (§4.2, §4.3): each inner node is the hash of its children's hashes, sorted in
 * binary ascending order and concatenated. Built binary, an odd node carried up unchanged, so that
 * every verifier we know reads it (Bouncy Castle 1.72 reads no other shape).
 */

/** Unsigned, byte by byte; a shorter value first when one is the other's start. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => compareBytes(a, b) === 0;

/** The hashes a tree may use (SHA-512 for a tree renewed to a stronger hash, §5.2). */
export type TreeHash = 'sha256' | 'sha512';
const HASHES = { sha256, sha512 } as const;

/** A node's hash: its children's hashes sorted, concatenated and hashed. Pure JavaScript: verify.html runs it too. */
export function nodeHash(children: readonly Uint8Array[], algorithm: TreeHash = 'sha256'): Uint8Array {
  return HASHES[algorithm](concatBytes(...[...children].sort(compareBytes)));
}

/** One data object's way to the root: lists of hashes, from its own level up (reducedHashtree). */
export type ReducedHashTree = Uint8Array[][];

export interface HashTree {
  root: Uint8Array;
  /** For each distinct leaf given (in the order given), its reduced tree; empty for a tree of one. */
  reduced(leaf: Uint8Array): ReducedHashTree;
}

/**
 * The tree over `leaves` (data objects' hashes; duplicates count once), and each leaf's reduced
 * tree: its own list (itself and its sibling), then one list per level above holding the sibling
 * of the node it joins, skipping a level where that node was carried up alone.
 */
export function hashTree(leaves: readonly Uint8Array[], algorithm: TreeHash = 'sha256'): HashTree {
  const distinct = [...leaves]
    .sort(compareBytes)
    .filter((leaf, i, all) => i === 0 || !sameBytes(leaf, all[i - 1] as Uint8Array));
  if (distinct.length === 0) throw new Error('A hash tree needs at least one data object.');
  // levels[0] are the leaves; each level's node i has children 2i and 2i+1 of the level below.
  const levels: Uint8Array[][] = [distinct];
  while ((levels.at(-1) as Uint8Array[]).length > 1) {
    const below = levels.at(-1) as Uint8Array[];
    const above: Uint8Array[] = [];
    for (let i = 0; i < below.length; i += 2) {
      const [left, right] = below.slice(i, i + 2) as [Uint8Array, Uint8Array?];
      above.push(right ? nodeHash([left, right], algorithm) : left);
    }
    levels.push(above);
  }
  const root = (levels.at(-1) as Uint8Array[])[0] as Uint8Array;
  return {
    root,
    reduced(leaf) {
      let index = indexIn(distinct, leaf);
      if (index < 0) throw new Error('That data object is not in this tree.');
      if (distinct.length === 1) return [];
      const lists: ReducedHashTree = [];
      for (let level = 0; level + 1 < levels.length; level++) {
        const nodes = levels[level] as Uint8Array[];
        const sibling = nodes[index ^ 1];
        if (level === 0)
          lists.push([nodes[index] as Uint8Array, ...(sibling ? [sibling] : [])].sort(compareBytes));
        else if (sibling) lists.push([sibling]);
        index >>= 1;
      }
      return lists;
    },
  };
}

/**
 * Where `leaf` is among the sorted leaves, by halves: a batch of a million looked each of its
 * leaves up from the start, and sealing it never ended (10,000 took a second of the main process).
 */
function indexIn(sorted: readonly Uint8Array[], leaf: Uint8Array): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareBytes(sorted[middle] as Uint8Array, leaf);
    if (order === 0) return middle;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * The root a data object's hash leads to through its reduced tree (§4.3 steps 2-3), or null when
 * the hash is not in the tree's first list. A first list of one value passes it up unhashed (as
 * RFC 6283 §3.1.1 makes explicit, and every verifier we know reads it).
 */
export function rootFrom(
  leaf: Uint8Array,
  reduced: ReducedHashTree,
  algorithm: TreeHash = 'sha256',
): Uint8Array | null {
  const [first, ...above] = reduced;
  if (!first) return leaf;
  if (!first.some((hash) => sameBytes(hash, leaf))) return null;
  let node = first.length === 1 ? (first[0] as Uint8Array) : nodeHash(first, algorithm);
  for (const list of above) node = nodeHash([...list, node], algorithm);
  return node;
}
