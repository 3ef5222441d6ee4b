import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { leafHash, logOf } from '../../sandbox/merkle';
import { consistencyHolds } from '../../verifier/consistency';

// The sandbox's RFC 6962 §2.1.2 proofs against the client's RFC 9162 §2.1.4.2 check.
const leaves = (n: number, salt = '') =>
  Array.from({ length: n }, (_, i) => leafHash(Buffer.from(`leaf ${i}${salt}`)));
const rootOf = (hashes: Buffer[]) => logOf(hashes).rootHash(hashes.length);
const consistencyProof = (hashes: Buffer[], first: number) =>
  logOf(hashes).consistencyProof(first, hashes.length);

describe('consistency proofs', () => {
  it('prove every older tree a prefix of every newer one, up to 40 leaves, all from one log of 40', () => {
    const all = leaves(40);
    // As the sandbox serves them: any two sizes, from the log as it is now.
    const log = logOf(all);
    for (let second = 1; second <= 40; second++)
      for (let first = 1; first <= second; first++) {
        const proof = log.consistencyProof(first, second);
        const holds = consistencyHolds(
          first,
          second,
          rootOf(all.slice(0, first)),
          rootOf(all.slice(0, second)),
          proof,
        );
        expect(holds, `${first} → ${second}`).toBe(true);
      }
  });

  it('fail for a log that rewrote an entry, a tampered proof, or the wrong sizes', () => {
    const all = leaves(21);
    const proof = consistencyProof(all, 13);
    const oldRoot = rootOf(all.slice(0, 13));
    const newRoot = rootOf(all);
    expect(consistencyHolds(13, 21, oldRoot, newRoot, proof)).toBe(true);

    // The same sizes, but entry 4 was replaced after the old head was signed.
    const rewritten = [...all];
    rewritten[4] = leafHash(Buffer.from('something else'));
    const rewrittenProof = consistencyProof(rewritten, 13);
    expect(consistencyHolds(13, 21, oldRoot, rootOf(rewritten), rewrittenProof)).toBe(false);

    const tampered = proof.map((node, i) => (i === 1 ? createHash('sha256').update(node).digest() : node));
    expect(consistencyHolds(13, 21, oldRoot, newRoot, tampered)).toBe(false);
    expect(consistencyHolds(12, 21, oldRoot, newRoot, proof)).toBe(false);
    expect(consistencyHolds(14, 21, oldRoot, newRoot, proof)).toBe(false);
    expect(consistencyHolds(13, 21, oldRoot, newRoot, proof.slice(0, -1))).toBe(false);
    expect(consistencyHolds(21, 13, newRoot, oldRoot, proof)).toBe(false);
    expect(consistencyHolds(8, 8, oldRoot, oldRoot, [])).toBe(true);
    expect(consistencyHolds(8, 8, oldRoot, newRoot, [])).toBe(false);
  });
});
