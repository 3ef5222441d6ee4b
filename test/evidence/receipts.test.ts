import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { Verification } from '../../main/evidence/verification';
import type { Receipt } from '../../protocol/receipt';
import type { TestWorkspace } from '../support/core';
import { METADATA, openCore, workspace } from '../support/core';
import { runCli } from '../support/cli';
import { BACKDATED, editedCopies } from '../support/edited-receipts';

// Receipts made by the CLI on the embedded sandbox, checked by the CLI on an empty data folder.
// The first four tests read one certification's receipt, made once; the last two make their own.
let ws: TestWorkspace;
let certified: { doc: string; receiptPath: string; receipt: Receipt };
beforeAll(async () => {
  ws = workspace('evidence-receipts-');
  certified = await certifiedWithReceipt(ws);
}, 60_000);
afterAll(() => ws.cleanup());

/** The verdict `verify --receipt --json` prints, from the function it calls, on this data folder. */
async function verdictOf(doc: string, receiptPath: string): Promise<object> {
  const { proof } = await Verification.checkProofAlone(doc, receiptPath, ws.dataDir, {
    logKeys: [],
    tsaRoots: [],
  });
  return proof.verdict;
}

const certifyArgs = ['--event-type', 'DOCUMENT_SIGNED', '--asset-type', 'contract'];
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function certifiedWithReceipt(
  ws: TestWorkspace,
): Promise<{ doc: string; receiptPath: string; receipt: Receipt }> {
  const [doc] = ws.files({ 'share purchase agreement.pdf': 'the signed agreement' });
  expect((await runCli(ws.dataDir, ['certify', doc!, ...certifyArgs, '--wait'])).code).toBe(0);
  const out = join(ws.dir, 'handover');
  const exported = await runCli(ws.dataDir, ['export', '--out', out]);
  expect(exported).toMatchObject({
    code: 0,
    stdout: expect.stringMatching(/Saved the evidence of 1 certification to/),
  });
  const receiptPath = join(out, 'certifications', 'share purchase agreement.pdf.receipt.json');
  return { doc: doc!, receiptPath, receipt: JSON.parse(readFileSync(receiptPath, 'utf8')) as Receipt };
}

describe('receipts', () => {
  it('are self-contained, say they come from a sandbox, and verify on an empty data folder with a trusted key', async () => {
    const { doc, receiptPath, receipt } = certified;
    expect(receipt).toMatchObject({
      format: 'evidence-desk-receipt/v4',
      demo: true,
      notice: expect.stringMatching(/DEMO .* no legal weight/),
      file: { name: 'share purchase agreement.pdf', size: 20, sha256: sha256('the signed agreement') },
      certification: { asset_type: 'contract', event_type: 'DOCUMENT_SIGNED', state: 'anchored' },
      environment: { kind: 'embedded' },
      verifiable: true,
      log_key: { algorithm: 'Ed25519', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(receipt.how_to_verify.length).toBeGreaterThan(3);

    const empty = join(ws.dir, 'another computer');
    const untrusted = await runCli(empty, ['verify', doc, '--receipt', receiptPath, '--json']);
    expect(untrusted.code).toBe(1);
    expect(JSON.parse(untrusted.stdout)).toMatchObject({
      verdict: 'untrusted_key',
      keyFingerprint: receipt.log_key!.fingerprint,
    });
    // The log key alone is not enough while the timestamp's authority is not trusted either.
    const keyOnly = ['verify', doc, '--receipt', receiptPath, '--log-key', receipt.log_key!.fingerprint];
    const untrustedTsa = await runCli(empty, [...keyOnly, '--json']);
    expect(untrustedTsa.code).toBe(1);
    const { rootFingerprint } = JSON.parse(untrustedTsa.stdout) as { rootFingerprint: string };
    expect(JSON.parse(untrustedTsa.stdout)).toMatchObject({
      verdict: 'untrusted_tsa',
      authority: 'DEMO Evidence Sandbox Timestamping Authority',
      rootFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const trusted = await runCli(empty, [...keyOnly, '--tsa-root', rootFingerprint]);
    expect(trusted.code).toBe(0);
    // Only signed facts are vouched for; the file's name, the matter and who certified it come apart.
    expect(trusted.stdout).toContain(
      `Verified: this is the certified document\nThis is exactly the certified content for the event “Signed”, certified ${receipt.certification.certified_at}, anchored ${receipt.certification.anchored_at}`,
    );
    expect(trusted.stdout).toContain(
      `Time confirmed by DEMO Evidence Sandbox Timestamping Authority at ${receipt.timestamp!.gen_time} (RFC 3161).`,
    );
    const [verdict, stated] = trusted.stdout.split('Stated by whoever made this receipt, not signed:');
    const signed = verdict!.slice(verdict!.indexOf('Verified:'));
    expect(signed).toMatch(/Signed:\n {2}Event: Signed · Contract\n/);
    expect(signed).not.toContain('share purchase agreement.pdf');
    expect(stated).toMatch(/File name: share purchase agreement\.pdf\n {2}Certified by: \S+ on \S+/);
    expect(trusted.stdout).toMatch(/DEMO: this certification was made on a sandbox/);
    // Nothing was written on the other computer: no queue, no profile.
    expect(existsSync(empty) ? readdirSync(empty) : []).toEqual([]);

    // Where the key is pinned and the token was kept (the data folder that certified it), nothing needs to be given.
    expect((await runCli(ws.dataDir, ['verify', doc, '--receipt', receiptPath])).code).toBe(0);
  }, 60_000);

  it('tell a different file apart, naming what was certified and when', async () => {
    const { receiptPath, receipt } = certified;
    const [edited] = ws.files({ 'share purchase agreement (edited).pdf': 'the signed agreement, edited' });
    const result = await runCli(ws.dataDir, ['verify', edited!, '--receipt', receiptPath, '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      verdict: 'content_differs',
      certified: { file: 'share purchase agreement.pdf', sha256: receipt.file.sha256 },
    });

    // Without a receipt, this computer's register knows a file of that name with other content.
    const [sameName] = ws.files({ 'later/share purchase agreement.pdf': 'the signed agreement, changed' });
    const local = await runCli(ws.dataDir, ['verify', sameName!]);
    expect(local.code).toBe(1);
    expect(local.stdout).toMatch(
      /A file named share purchase agreement.pdf was certified on \S+Z, but its content has changed since/,
    );
  }, 60_000);

  it('name the check that fails when a receipt was altered', async () => {
    const { doc, receiptPath, receipt } = certified;
    // Untouched, it verifies here: every failure below is the alteration's.
    expect(await verdictOf(doc, receiptPath)).toMatchObject({ verdict: 'verified' });
    const evidence = receipt.evidence as Record<string, unknown> & {
      signed_tree_head: Record<string, unknown>;
    };
    const flip = (hex: string) => (hex[0] === 'a' ? 'b' : 'a') + hex.slice(1);
    const tampered: [string, Receipt, string][] = [
      [
        'leaf',
        {
          ...receipt,
          evidence: { ...evidence, leaf_input: String(evidence.leaf_input).replace('"v":1', '"v":2') },
        },
        'leaf',
      ],
      [
        'index',
        { ...receipt, evidence: { ...evidence, leaf_index: Number(evidence.leaf_index) + 1 } },
        'proof',
      ],
      [
        'proof root',
        { ...receipt, evidence: { ...evidence, root_hash: flip(String(evidence.root_hash)) } },
        'proof',
      ],
      [
        'signed root',
        {
          ...receipt,
          evidence: {
            ...evidence,
            signed_tree_head: {
              ...evidence.signed_tree_head,
              root_hash: flip(String(evidence.signed_tree_head.root_hash)),
            },
          },
        },
        'root',
      ],
      [
        'signature',
        {
          ...receipt,
          evidence: {
            ...evidence,
            signed_tree_head: {
              ...evidence.signed_tree_head,
              signature: flip(String(evidence.signed_tree_head.signature)),
            },
          },
        },
        'signature',
      ],
      [
        'key id',
        { ...receipt, evidence: { ...evidence, log_key_id: flip(String(evidence.log_key_id)) } },
        'key_id',
      ],
      ['format', { ...receipt, format: 'something-else' } as unknown as Receipt, 'format'],
    ];
    const proof = evidence.inclusion_proof as string[];
    if (proof.length > 0)
      tampered.push([
        'proof',
        { ...receipt, evidence: { ...evidence, inclusion_proof: [flip(proof[0]!), ...proof.slice(1)] } },
        'proof',
      ]);
    for (const [what, changed, check] of tampered) {
      const path = join(ws.dir, `tampered-${what}.json`);
      writeFileSync(path, JSON.stringify(changed));
      expect(await verdictOf(doc, path), what).toMatchObject({ verdict: 'receipt_invalid', check });
    }
    // The command line says the same, with its exit code.
    const result = await runCli(ws.dataDir, [
      'verify',
      doc,
      '--receipt',
      join(ws.dir, 'tampered-leaf.json'),
      '--json',
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ verdict: 'receipt_invalid', check: 'leaf' });
  }, 90_000);

  it('refuse a readable copy of any signed fact that was edited, naming the field; v1 receipts keep verifying', async () => {
    const { doc, receipt } = certified;
    const c = receipt.certification;
    for (const [field, edited] of Object.entries(editedCopies(receipt))) {
      const path = join(ws.dir, `edited-${field}.json`);
      writeFileSync(path, JSON.stringify(edited));
      const verdict = await verdictOf(doc, path);
      expect(verdict, field).toMatchObject({
        verdict: 'receipt_invalid',
        check: 'copy',
        field,
        message: expect.stringContaining(`what it says under “${field}” is not what`),
      });
      expect(JSON.stringify(verdict), field).not.toContain('2019');
    }
    // The certification id is bound by the evidence check itself.
    const otherId = join(ws.dir, 'edited-id.json');
    writeFileSync(
      otherId,
      JSON.stringify({ ...receipt, certification: { ...c, certification_id: 'cert_other' } }),
    );
    expect(await verdictOf(doc, otherId)).toMatchObject({
      verdict: 'receipt_invalid',
      check: 'leaf',
    });

    // A v1 receipt (handed out before v2) wrote this computer's clock in its dates: it verifies on the
    // signed times, and an edited date there is only ever shown as the computer's, never vouched for.
    const v1 = {
      ...receipt,
      format: 'evidence-desk-receipt/v1',
      certification: { ...c, certified_at: BACKDATED, queued_at: undefined },
      timestamp: undefined,
    };
    const v1Path = join(ws.dir, 'v1.receipt.json');
    writeFileSync(v1Path, JSON.stringify(v1));
    const old = await runCli(ws.dataDir, ['verify', doc, '--receipt', v1Path]);
    expect(old.code).toBe(0);
    const [signedPart, statedPart] = old.stdout.split('Stated by whoever made this receipt, not signed:');
    expect(signedPart).toContain(`Certified at: ${c.certified_at}`);
    expect(signedPart).not.toContain('2019');
    expect(statedPart).toContain(`Queued at (computer clock): ${BACKDATED}`);
    expect(old.stdout).toContain('No independent timestamp: the time rests on the log alone.');

    // Evidence in a format nobody here can check (as the real service's may be), with a token that holds:
    // it verifies on the authority's word alone, and says so.
    const foreign = join(ws.dir, 'foreign-evidence.receipt.json');
    writeFileSync(
      foreign,
      JSON.stringify({
        ...receipt,
        evidence: { format: 'another-service/v3', proof: 'opaque' },
        log_key: null,
      }),
    );
    const timeOnly = await runCli(ws.dataDir, ['verify', doc, '--receipt', foreign]);
    expect(timeOnly.code).toBe(0);
    expect(timeOnly.stdout).toContain(
      `This content existed at ${receipt.timestamp!.gen_time}, according to DEMO Evidence Sandbox Timestamping Authority (RFC 3161 timestamp); the service's own evidence cannot be checked here.`,
    );
    expect(timeOnly.stdout).not.toMatch(/Certified at|Anchored at:/);
  }, 90_000);

  it('of a certification not yet anchored say so, and never verify', async () => {
    const ws = workspace('evidence-receipts-');
    const core = await openCore(ws.dataDir, { sync: false });
    try {
      const [row] = core.queue.rows(
        (await core.certify(ws.files({ 'draft.pdf': 'draft' }), METADATA)).queued,
      );
      const receipt = core.exports.receipt(row!.id);
      expect(receipt).toMatchObject({
        verifiable: false,
        status: expect.stringMatching(/^Not yet verifiable/),
        how_to_verify: [],
      });
      const path = join(ws.dir, 'draft.receipt.json');
      writeFileSync(path, JSON.stringify(receipt));
      const result = await runCli(join(ws.dir, 'empty'), [
        'verify',
        row!.filePath,
        '--receipt',
        path,
        '--json',
      ]);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ verdict: 'not_anchored' });
    } finally {
      await core.close();
      ws.cleanup();
    }
  }, 60_000);

  it('are written beside each certified file once it is anchored, only when chosen', async () => {
    const ws = workspace('evidence-receipts-');
    onTestFinished(() => ws.cleanup());
    const [unchosen] = ws.files({ 'before.pdf': 'before the setting' });
    expect((await runCli(ws.dataDir, ['certify', unchosen!, ...certifyArgs, '--wait'])).code).toBe(0);
    expect(existsSync(`${unchosen}.receipt.json`)).toBe(false);

    expect(await runCli(ws.dataDir, ['config', 'receipts-beside-files', 'on'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        /receipts-beside-files on: a receipt is written beside each certified file/,
      ),
    });
    // A receipt of another certification already there is kept; this one is numbered.
    const [board, taken] = ws.files({ 'board minutes.pdf': 'the minutes', 'taken.pdf': 'taken' });
    writeFileSync(`${taken}.receipt.json`, JSON.stringify({ certification: { request_id: 'someone else' } }));
    expect((await runCli(ws.dataDir, ['certify', board!, taken!, ...certifyArgs, '--wait'])).code).toBe(0);
    const beside = `${board}.receipt.json`;
    expect(JSON.parse(readFileSync(beside, 'utf8'))).toMatchObject({
      file: { name: 'board minutes.pdf' },
      certification: { state: 'anchored' },
      verifiable: true,
    });
    expect(existsSync(join(ws.dir, 'docs', 'taken.pdf (2).receipt.json'))).toBe(true);
    expect((await runCli(ws.dataDir, ['verify', board!, '--receipt', beside])).code).toBe(0);
  }, 60_000);
});
