import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateFingerprint } from '../../verifier/timestamp/certificate-bytes';
import { hashTree, rootFrom } from '../../verifier/evidence-record/hash-tree';
import { evidenceRecord, imprintAlgorithmOf } from '../../verifier/evidence-record/evidence-record';
import { checkRecord } from '../../verifier/evidence-record/check-record';
import type { OpensslTsa } from '../support/openssl-tsa';
import { startOpensslTsa } from '../support/openssl-tsa';
import type { BouncyCastle } from '../support/bouncy-castle';
import { bouncyCastle } from '../support/bouncy-castle';

// RFC 4998 evidence records, checked by our verifier and by an independent one: Bouncy Castle's
// (test/support/bouncy-castle.ts). The token comes from a TSA that is not ours: OpenSSL's `ts -reply`.
const run = promisify(execFile);
let dir: string;
let tsa: OpensslTsa;
let oracle: BouncyCastle;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-records-'));
  tsa = await startOpensslTsa(join(dir, 'tsa'));
  oracle = await bouncyCastle(dir);
});
afterAll(async () => {
  await tsa.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A token from the authority whose message imprint is `digest` itself (RFC 4998: the tree's root). */
async function tokenOver(digest: Uint8Array): Promise<Uint8Array> {
  const query = join(dir, 'root.tsq');
  await run('openssl', [
    'ts',
    '-query',
    '-digest',
    Buffer.from(digest).toString('hex'),
    '-sha256',
    '-cert',
    '-out',
    query,
  ]);
  const answer = await fetch(tsa.url, {
    method: 'POST',
    headers: { 'content-type': 'application/timestamp-query' },
    body: readFileSync(query),
  });
  writeFileSync(join(dir, 'root.tsr'), Buffer.from(await answer.arrayBuffer()));
  await run('openssl', [
    'ts',
    '-reply',
    '-in',
    join(dir, 'root.tsr'),
    '-token_out',
    '-out',
    join(dir, 'root.tst'),
  ]);
  return new Uint8Array(readFileSync(join(dir, 'root.tst')));
}

const bouncyCastleSays = (record: Uint8Array, document: Uint8Array) =>
  oracle.validate(record, document, tsa.rootFile);

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());

describe('RFC 4998 evidence records', () => {
  it('lead every document of a batch to the one timestamped root, for us and for Bouncy Castle, and fail on one changed byte', async () => {
    // Five documents: a tree whose last leaf is carried up alone, so every shape of list is used.
    const documents = ['contract', 'exhibit A', 'exhibit B', 'letter', 'minutes'].map((name) =>
      new TextEncoder().encode(`${name}: the content`),
    );
    const tree = hashTree(documents.map(sha256));
    const token = await tokenOver(tree.root);
    const algorithm = imprintAlgorithmOf(token);
    expect(algorithm).not.toBeNull();
    const trust = { certificates: [], trustedRoots: [certificateFingerprint(new Uint8Array(tsa.rootDer))] };
    for (const document of documents) {
      const reduced = tree.reduced(sha256(document));
      expect(rootFrom(sha256(document), reduced)).toEqual(tree.root);
      const record = evidenceRecord(token, reduced, algorithm!);
      const ours = await checkRecord({ sha256: sha256(document) }, record, trust);
      expect(ours, JSON.stringify(ours)).toMatchObject({ ok: true });
      const theirs = await bouncyCastleSays(record, document);
      expect(theirs.code, theirs.said).toBe(0);
    }
    // One changed byte in the document, or in the record's tree: neither verifier accepts it.
    const [first] = documents as [Uint8Array];
    const record = evidenceRecord(token, tree.reduced(sha256(first)), algorithm!);
    const changed = Uint8Array.from(first);
    changed[0] = (changed[0] as number) ^ 1;
    expect(await checkRecord({ sha256: sha256(changed) }, record, trust)).toMatchObject({
      ok: false,
      why: 'The evidence record is not for this document (its hash is not in the record).',
    });
    expect((await bouncyCastleSays(record, changed)).code).toBe(1);
    const tampered = Uint8Array.from(record);
    const inTree = Buffer.from(tampered).indexOf(Buffer.from(tree.reduced(sha256(first))[0]![1]!));
    tampered[inTree + 5] = (tampered[inTree + 5] as number) ^ 1;
    expect((await checkRecord({ sha256: sha256(first) }, tampered, trust)).ok).toBe(false);
    expect((await bouncyCastleSays(tampered, first)).code).toBe(1);
    // A document alone in its tree has no reduced tree: the token is over its own hash.
    const alone = await tokenOver(sha256(first));
    const single = evidenceRecord(
      alone,
      hashTree([sha256(first)]).reduced(sha256(first)),
      imprintAlgorithmOf(alone)!,
    );
    expect((await checkRecord({ sha256: sha256(first) }, single, trust)).ok).toBe(true);
    expect((await bouncyCastleSays(single, first)).code).toBe(0);
  }, 60_000);
});
