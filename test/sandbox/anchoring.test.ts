import { afterEach, describe, expect, it } from 'vitest';
import { verifySandboxEvidence } from '../../verifier/sandbox-evidence';
import type { Sandbox } from '../../sandbox/server';
import {
  certificationBody,
  fetchToken,
  getCertification,
  postCertification,
  startTestSandbox,
} from '../support/sandbox';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

interface Record {
  id: string;
  state: string;
  asset_hash: string;
  anchored_at: string | null;
  failure: { code: string; message: string } | null;
  evidence:
    (globalThis.Record<string, unknown> & { signed_tree_head: globalThis.Record<string, unknown> }) | null;
}

async function createMany(s: Sandbox, token: string, n: number): Promise<Record[]> {
  const created: Record[] = [];
  for (let i = 0; i < n; i++) {
    created.push(
      (await (await postCertification(s.baseUrl, certificationBody(), { token })).json()) as Record,
    );
  }
  return created;
}

async function read(s: Sandbox, token: string, id: string): Promise<Record> {
  return (await (await getCertification(s.baseUrl, id, token)).json()) as Record;
}

async function publishedKey(s: Sandbox): Promise<string> {
  const response = await fetch(`${s.baseUrl}/v1/log/public-key`);
  expect(response.status).toBe(200);
  const key = (await response.json()) as { algorithm: string; public_key: string; key_id: string };
  expect(key.algorithm).toBe('Ed25519');
  return key.public_key;
}

describe('anchoring into the Merkle log', () => {
  it('anchors in batches, and every certification carries evidence that verifies offline', async () => {
    sandbox = await startTestSandbox();
    const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
    const first = await createMany(sandbox, token, 5);
    expect(sandbox.anchorNow()).toEqual({ anchored: 5, failed: 0, treeSize: 5 });
    const second = await createMany(sandbox, token, 6);
    expect(sandbox.anchorNow()).toEqual({ anchored: 6, failed: 0, treeSize: 11 });

    const logPublicKey = await publishedKey(sandbox);
    for (const created of [...first, ...second]) {
      const record = await read(sandbox, token, created.id);
      expect(record.state).toBe('anchored');
      expect(record.anchored_at).not.toBeNull();
      const verdict = verifySandboxEvidence(record.evidence, {
        assetHash: created.asset_hash,
        certificationId: created.id,
        logPublicKey,
      });
      expect(verdict).toMatchObject({ verified: true });
    }
    // Earlier evidence proves inclusion in the tree as it was then; its signed head stays valid.
    const early = await read(sandbox, token, first[0]!.id);
    expect(early.evidence).toMatchObject({ tree_size: 5, leaf_index: 0 });

    const head = (await (await fetch(`${sandbox.baseUrl}/v1/log/tree-head`)).json()) as { tree_size: number };
    expect(head.tree_size).toBe(11);
  });

  it('evidence fails verification when any part is altered or it is checked against another file or key', async () => {
    sandbox = await startTestSandbox();
    const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
    const [created] = await createMany(sandbox, token, 3);
    sandbox.anchorNow();
    const record = await read(sandbox, token, created!.id);
    const evidence = record.evidence!;
    const logPublicKey = await publishedKey(sandbox);
    const expectation = { assetHash: created!.asset_hash, certificationId: created!.id, logPublicKey };
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    const proof = evidence.inclusion_proof as string[];

    const altered: [unknown, string][] = [
      [
        {
          ...evidence,
          leaf_input: String(evidence.leaf_input).replace('DOCUMENT_SIGNED', 'DOCUMENT_VOIDED'),
        },
        'leaf_hash_mismatch',
      ],
      [{ ...evidence, inclusion_proof: [flip(proof[0]!), ...proof.slice(1)] }, 'inclusion_proof_invalid'],
      [{ ...evidence, leaf_index: 1 }, 'inclusion_proof_invalid'],
      [
        {
          ...evidence,
          signed_tree_head: {
            ...evidence.signed_tree_head,
            timestamp: Number(evidence.signed_tree_head.timestamp) + 1,
          },
        },
        'tree_head_signature_invalid',
      ],
      [
        { ...evidence, signed_tree_head: { ...evidence.signed_tree_head, tree_size: 99 } },
        'tree_head_mismatch',
      ],
      [{ format: 'something-else' }, 'evidence_unreadable'],
      [null, 'evidence_unreadable'],
    ];
    for (const [bad, code] of altered) {
      expect(verifySandboxEvidence(bad, expectation)).toMatchObject({ verified: false, code });
    }
    expect(verifySandboxEvidence(evidence, { ...expectation, assetHash: 'f'.repeat(64) })).toMatchObject({
      code: 'asset_hash_mismatch',
    });
    // A changed key id, and the same signature in a non-canonical base64 spelling, both fail.
    expect(verifySandboxEvidence({ ...evidence, log_key_id: 'e'.repeat(64) }, expectation)).toMatchObject({
      code: 'key_id_mismatch',
    });
    const signature = String(evidence.signed_tree_head.signature);
    const sloppy = `${signature.slice(0, 10)}\n${signature.slice(10)}`;
    expect(
      verifySandboxEvidence(
        { ...evidence, signed_tree_head: { ...evidence.signed_tree_head, signature: sloppy } },
        expectation,
      ),
    ).toMatchObject({ code: 'tree_head_signature_invalid' });
    expect(verifySandboxEvidence(evidence, { ...expectation, certificationId: 'cert_other' })).toMatchObject({
      code: 'certification_mismatch',
    });

    const stranger = await startTestSandbox();
    try {
      const otherKey = await publishedKey(stranger);
      // The evidence names its key: checked against another one, that is the first thing to fail.
      expect(verifySandboxEvidence(evidence, { ...expectation, logPublicKey: otherKey })).toMatchObject({
        code: 'key_id_mismatch',
      });
      // Without the names, the signature itself does not hold under another key.
      const unnamed = { ...evidence, log_key_id: undefined };
      const head = { ...evidence.signed_tree_head, key_id: undefined };
      expect(
        verifySandboxEvidence(
          { ...unnamed, signed_tree_head: head },
          { ...expectation, logPublicKey: otherKey },
        ),
      ).toMatchObject({ code: 'tree_head_signature_invalid' });
    } finally {
      await stranger.stop();
    }
  });

  it('anchors on its own at the batch interval', async () => {
    sandbox = await startTestSandbox({ batchIntervalMs: 100 });
    const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
    const [created] = await createMany(sandbox, token, 1);
    await expect
      .poll(async () => (await read(sandbox!, token, created!.id)).state, { timeout: 5000 })
      .toBe('anchored');
  });

  it('waits for the anchoring delay, and holds everything while paused', async () => {
    sandbox = await startTestSandbox({ faults: { anchorDelayMs: 60_000 } });
    const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
    await createMany(sandbox, token, 2);
    expect(sandbox.anchorNow().anchored).toBe(0);
    sandbox.setFaults({ anchorDelayMs: 0, anchoringPaused: true });
    expect(sandbox.anchorNow().anchored).toBe(0);
    sandbox.setFaults({ anchoringPaused: false });
    expect(sandbox.anchorNow().anchored).toBe(2);
  });

  it('fails certifications at anchoring when told to, with a code and a reason', async () => {
    sandbox = await startTestSandbox({ faults: { anchorFailureRate: 1 } });
    const token = await fetchToken(sandbox.tokenUrl, sandbox.demoClient);
    const [created] = await createMany(sandbox, token, 1);
    expect(sandbox.anchorNow()).toMatchObject({ anchored: 0, failed: 1 });
    const record = await read(sandbox, token, created!.id);
    expect(record.state).toBe('failed');
    expect(record.evidence).toBeNull();
    expect(record.failure?.code).toBe('anchoring_failed');
    expect(record.failure?.message).toMatch(/fault injection/);
  });
});
