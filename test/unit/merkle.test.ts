import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { batchTree, rootFromInclusionProof, rootFromSidedPath } from '../../verifier/merkle';
import { MerkleLog, leafHash, logOf, nodesInMemory } from '../../sandbox/merkle';

// RFC 6962 §2.1 written recursively, exactly as the RFC states it: the reference both
// the sandbox's log of complete subtrees and the client's proof checker must agree with.
const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const largestPowerOfTwoBelow = (n: number) => 2 ** Math.floor(Math.log2(n - 1));
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 1) return sha(Buffer.from([0]), leaves[0] as Buffer);
  const k = largestPowerOfTwoBelow(leaves.length);
  return sha(Buffer.from([1]), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}
function path(m: number, leaves: Buffer[]): Buffer[] {
  if (leaves.length === 1) return [];
  const k = largestPowerOfTwoBelow(leaves.length);
  return m < k
    ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))]
    : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
}

const inputs = (n: number) => Array.from({ length: n }, (_, i) => Buffer.from(`leaf ${i}`));

describe('RFC 6962 Merkle tree', () => {
  it('matches the RFC definition for every tree size up to 70 and every leaf, grown in batches of every size', () => {
    const all = inputs(70);
    const nodes = nodesInMemory();
    // Batches of 1, 2, 3, … leaves, as anchoring appends them; each size is then read from one log.
    for (let size = 0, batch = 1; size < all.length; size += batch, batch++)
      new MerkleLog(nodes).append(size, all.slice(size, size + batch).map(leafHash));
    for (let n = 1; n <= 70; n++) {
      const leaves = all.slice(0, n);
      const log = new MerkleLog(nodes);
      const root = log.rootHash(n);
      expect(root.equals(mth(leaves)), `root of ${n}`).toBe(true);
      for (let m = 0; m < n; m++) {
        const proof = log.inclusionProof(m, n);
        expect(
          proof.map((p) => p.toString('hex')),
          `path ${m} of ${n}`,
        ).toEqual(path(m, leaves).map((p) => p.toString('hex')));
        expect(sameBytes(rootFromInclusionProof(leafHash(leaves[m] as Buffer), m, n, proof), root)).toBe(
          true,
        );
      }
    }
  });

  it('refuses a proof that was tampered with, shortened, or given the wrong index or size', () => {
    const leaves = inputs(13).map(leafHash);
    const log = logOf(leaves);
    const tree = { rootHash: log.rootHash(13) };
    const proof = log.inclusionProof(5, 13);
    const leaf = leaves[5] as Buffer;
    const tampered = proof.map((p, i) => (i === 1 ? Buffer.alloc(32, 7) : p));
    expect(sameBytes(rootFromInclusionProof(leaf, 5, 13, tampered), tree.rootHash)).toBe(false);
    expect(rootFromInclusionProof(leaf, 5, 13, proof.slice(0, -1))).toBeUndefined();
    expect(rootFromInclusionProof(leaf, 5, 13, [...proof, Buffer.alloc(32)])).toBeUndefined();
    expect(sameBytes(rootFromInclusionProof(leaf, 4, 13, proof), tree.rootHash)).toBe(false);
    expect(rootFromInclusionProof(leaf, 13, 13, proof)).toBeUndefined();
  });

  it('treats the leaf and node prefixes as RFC 6962 does', () => {
    expect(leafHash(Buffer.alloc(0)).toString('hex')).toBe(
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    );
    expect(() => logOf([]).rootHash(0)).toThrow(/empty/);
  });
});

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && Buffer.from(a).equals(b);
}

describe('a batch tree for timestamping', () => {
  it("gives a batch of files one root (the RFC's tree over their SHA-256s) and each file a sided path to it", () => {
    for (let n = 1; n <= 40; n++) {
      const hashes = inputs(n).map((input) => sha(input));
      const { root, paths } = batchTree(hashes);
      expect(Buffer.from(root).equals(mth(hashes)), `root of ${n}`).toBe(true);
      hashes.forEach((hash, i) => {
        expect(sameBytes(rootFromSidedPath(hash, paths[i]!), mth(hashes)), `path ${i} of ${n}`).toBe(true);
        // Another file's hash on the same path leads elsewhere.
        expect(sameBytes(rootFromSidedPath(sha(Buffer.from('other')), paths[i]!), mth(hashes))).toBe(false);
      });
    }
  });
});
