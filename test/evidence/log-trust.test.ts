import { catchUpLogNodes } from '../../sandbox/log-nodes';
import { itPolicyOf } from '../../main/desktop-policy/it-policy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EvidenceCore } from '../../main/core';
import type { Sandbox } from '../../sandbox/server';
import { runCli, runCliWith } from '../support/cli';
import type { TestWorkspace } from '../support/core';
import { METADATA, openCore, useSandboxProfile, workspace } from '../support/core';
import { countingProxy } from '../support/counting-proxy';
import { startTestSandbox } from '../support/sandbox';
import { englishOf } from '../support/english';

// Which log key is trusted, and whether the log only grows: real cores, real sandboxes on
// loopback (each with its own key), a recording forwarder that only observes.
let ws: TestWorkspace;
const closing: (() => Promise<unknown>)[] = [];
beforeEach(() => {
  ws = workspace('evidence-log-trust-');
});
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  ws.cleanup();
});

async function sandbox(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<Sandbox> {
  const started = await startTestSandbox({ batchIntervalMs: 100, ...options });
  closing.push(() => started.stop());
  return started;
}

async function core(): Promise<EvidenceCore> {
  const opened = await openCore(ws.dataDir);
  closing.push(() => opened.close());
  return opened;
}

let fileCount = 0;
async function certifyOne(on: EvidenceCore) {
  const [path] = ws.files({ [`document-${++fileCount}.pdf`]: `content ${fileCount} ${Math.random()}` });
  const { queued } = await on.certify([path!], METADATA);
  const [row] = await on.sync.waitUntilSettled(queued, 20_000);
  return row!;
}

describe('the log key', () => {
  it('is fetched without credentials, and not asked for again on every row while the service lacks it', async () => {
    const service = await sandbox({ faults: { withoutPaths: ['/v1/log/public-key'] } });
    const proxy = await countingProxy(service.baseUrl);
    closing.push(() => proxy.close());
    const desk = await core();
    await useSandboxProfile(desk, { ...service, baseUrl: proxy.url }, 'with-api-key', { apiKey: 'set' });
    const paths = ws.files(
      Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`exhibit-${i}.pdf`, `exhibit ${i}`])),
    );
    const { queued } = await desk.certify(paths, METADATA);
    const rows = await desk.sync.waitUntilSettled(queued, 20_000);
    expect(rows.map((row) => row.state)).toEqual(Array(6).fill('anchored'));
    expect(englishOf(rows[0]!.verificationMessage)).toMatch(
      /log key needed to check the evidence could not be fetched/,
    );

    const keyFetches = proxy.requests.filter((r) => r.path === '/v1/log/public-key');
    expect(keyFetches.length).toBe(1);
    const authenticated = proxy.requests.find((r) => r.method === 'POST' && r.path === '/v1/certifications')!;
    expect(authenticated.headers['x-api-key']).toBeDefined();
    for (const name of ['authorization', 'x-api-key', 'x-api-secret', 'x-service-signature'])
      expect(keyFetches[0]!.headers[name], name).toBeUndefined();
  }, 60_000);

  it('is asked for once by rows checked at the same moment, which share the answer', async () => {
    const service = await sandbox({ faults: { withoutPaths: ['/v1/log/public-key'] } });
    const proxy = await countingProxy(service.baseUrl);
    closing.push(() => proxy.close());
    const desk = await core();
    await useSandboxProfile(desk, { ...service, baseUrl: proxy.url }, 'shared-answer');
    // The sync engine's own trust, as several anchored rows reach it in the same moment.
    const trust = (desk as unknown as { logKeys: { pinnedLogKey(): Promise<{ reason?: unknown }> } }).logKeys;
    const answers = await Promise.all([trust.pinnedLogKey(), trust.pinnedLogKey(), trust.pinnedLogKey()]);
    expect(answers.every((answer) => answer.reason !== undefined)).toBe(true);
    expect(proxy.requests.filter((r) => r.path === '/v1/log/public-key')).toHaveLength(1);
  });

  it('can be given to a profile as a PEM key or a fingerprint; a fingerprint the service does not match is refused', async () => {
    const service = await sandbox({ faults: { withoutPaths: ['/v1/log/public-key'] } });
    const desk = await core();
    await useSandboxProfile(desk, service, 'given-pem', { logKey: service.logKey.publicKeyPem.trim() });
    expect(await certifyOne(desk)).toMatchObject({ verification: 'verified' });

    const other = await sandbox();
    await useSandboxProfile(desk, other, 'given-wrong-fingerprint', { logKey: service.logKey.keyId });
    const row = await certifyOne(desk);
    expect(row.verification).toBe('unverifiable');
    expect(englishOf(row.verificationMessage)).toContain(
      `not the ${service.logKey.keyId} given in the settings`,
    );
  }, 60_000);

  it('re-pins when a profile is re-pointed, and a different key waits until the user accepts it', async () => {
    const first = await sandbox();
    const second = await sandbox();
    expect(first.logKey.keyId).not.toBe(second.logKey.keyId);
    const desk = await core();
    await useSandboxProfile(desk, first, 'firm');
    const before = await certifyOne(desk);
    expect(before.verification).toBe('verified');

    // The same profile, pointed at another service with another key.
    await useSandboxProfile(desk, second, 'firm');
    const after = await certifyOne(desk);
    expect(after.verification).toBe('unverifiable');
    expect(englishOf(after.verificationMessage)).toMatch(/log key changed.*until you accept it/);
    expect(desk.status().logKeyChange).toMatchObject({
      previousFingerprint: first.logKey.keyId,
      fingerprint: second.logKey.keyId,
    });
    // The older certification's receipt still carries the key that signed it.
    expect(desk.exports.receipt(before.id).log_key?.fingerprint).toBe(first.logKey.keyId);
    await desk.close();

    // Accepting takes the new fingerprint typed out, and checks the waiting evidence again.
    const status = await runCli(ws.dataDir, ['status']);
    expect(status.stdout).toMatch(
      new RegExp(`WARNING: the service's log key changed \\(now ${second.logKey.keyId}\\)`),
    );
    // Where IT decides (policy LockLogKeys), nobody at this computer can trust it, and is told who can.
    const locked = await runCliWith(ws.dataDir, ['profile', 'trust-key', second.logKey.keyId], undefined, {
      EVIDENCE_DESK_LOCK_LOG_KEYS: '1',
    });
    expect(locked.code).toBe(3);
    expect(locked.stderr).toContain('Your IT department decides which log keys this computer trusts');
    const refused = await runCli(ws.dataDir, ['profile', 'trust-key']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`evidence-desk profile trust-key ${second.logKey.keyId}`);
    const accepted = await runCli(ws.dataDir, ['profile', 'trust-key', second.logKey.keyId]);
    expect(accepted).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/checked 1 certification again/),
    });
    const reopened = await core();
    expect(reopened.queue.details(after.id).row.verification).toBe('verified');
    expect(reopened.status().logKeyChange).toBeNull();
  }, 90_000);

  it('is trusted without anyone at this computer when IT trusts it by policy, and never by a click when IT has locked it', async () => {
    const first = await sandbox();
    const second = await sandbox();
    const policy = { ...itPolicyOf({}), locked: true, trusted: [second.logKey.keyId] };
    const desk = await openCore(ws.dataDir, { itPolicy: policy });
    closing.push(() => desk.close());
    await useSandboxProfile(desk, first, 'firm');
    expect((await certifyOne(desk)).verification).toBe('verified');
    // The service moves to the key IT has checked: verified, with no one asked.
    await useSandboxProfile(desk, second, 'firm');
    expect((await certifyOne(desk)).verification).toBe('verified');
    expect(desk.status().logKeyChange).toBeNull();
    // A key IT has not checked waits, says IT decides, and a click is refused.
    policy.trusted = [];
    const third = await sandbox();
    await useSandboxProfile(desk, third, 'firm');
    expect((await certifyOne(desk)).verification).toBe('unverifiable');
    expect(desk.status().logKeyChange).toMatchObject({
      fingerprint: third.logKey.keyId,
      lockedByPolicy: true,
    });
    await expect(desk.profiles.acceptLogKeyChange()).rejects.toMatchObject({ code: 'forbidden' });
  }, 90_000);
});

describe('the log only grows', () => {
  it('fails loudly and for good when the log rewrote its history', async () => {
    const service = await sandbox();
    const desk = await core();
    await useSandboxProfile(desk, service);
    expect(await certifyOne(desk)).toMatchObject({ verification: 'verified' });
    expect(await certifyOne(desk)).toMatchObject({ verification: 'verified' });

    // The service replaces its first entry after its tree head was signed and seen, and rebuilds its tree.
    service.db.prepare('UPDATE certifications SET leaf_hash = ? WHERE leaf_index = 0').run('00'.repeat(32));
    service.db.exec('DELETE FROM log_nodes');
    catchUpLogNodes(service.db);
    const third = await certifyOne(desk);
    expect(third.verification).toBe('invalid');
    expect(englishOf(third.verificationMessage)).toMatch(/log rewrote its history/);
    // Every later check of that log fails the same way.
    const fourth = await certifyOne(desk);
    expect(englishOf(fourth.verificationMessage)).toMatch(/log rewrote its history/);
  }, 60_000);

  it('is still checked as far as possible against a service without consistency proofs', async () => {
    const service = await sandbox({ faults: { withoutPaths: ['/v1/log/consistency'] } });
    const desk = await core();
    await useSandboxProfile(desk, service);
    expect(await certifyOne(desk)).toMatchObject({ verification: 'verified' });
    expect(await certifyOne(desk)).toMatchObject({ verification: 'verified' });
  }, 60_000);
});
