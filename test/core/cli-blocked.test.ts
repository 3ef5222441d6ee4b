import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../main/secrets/secret-store';
import { openStore } from '../../main/store';
import type { Sandbox } from '../../sandbox/server';
import type { TestWorkspace } from '../support/core';
import { filesHoldingSecrets, workspace } from '../support/core';
import { profileSetArgs, runCli } from '../support/cli';
import { startTestSandbox } from '../support/sandbox';

// The CLI in its own process, on a real queue file, the real keychain and the real sandbox.
let ws: TestWorkspace;
let sandbox: Sandbox;
beforeEach(async () => {
  ws = workspace('evidence-blocked-');
  sandbox = await startTestSandbox({ batchIntervalMs: 200 });
});
afterEach(async () => {
  await new KeychainSecretStore().delete('acme', 'client_secret');
  await sandbox.stop();
  ws.cleanup();
});

const cli = (args: string[], input?: string) => runCli(ws.dataDir, args, input);
// The same document is certified again and again here, on purpose: --again says so.
const certifyArgs = ['--event-type', 'DOCUMENT_SIGNED', '--asset-type', 'document', '--again'];
const setProfile = (clientId: string, secret: string) =>
  cli(profileSetArgs('acme', sandbox, clientId), `${secret}\n`);

describe('when the active profile cannot be used', () => {
  it('opens every command when its secret is missing from the keychain, says what is wrong, and lets it be fixed', async () => {
    const client = sandbox.createClient();
    expect((await setProfile(client.clientId, client.clientSecret)).code).toBe(0);
    expect((await cli(['profile', 'use', 'acme'])).code).toBe(0);
    // A new keychain session: the secret is gone, the profile is still the active one.
    await new KeychainSecretStore().delete('acme', 'client_secret');

    const status = await cli(['status']);
    expect(status).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/client secret for "acme" is not in the keychain/),
    });
    expect(JSON.parse((await cli(['status', '--json'])).stdout)).toMatchObject({
      connectivity: { state: 'needs_setup' },
    });
    expect((await cli(['profile', 'show'])).code).toBe(0);
    const [doc] = ws.files({ 'lease.pdf': 'the lease' });
    // Offline verification needs no service: not certified is exit 1, not a lockout.
    expect((await cli(['verify', doc!])).code).toBe(1);

    const queued = await cli(['certify', doc!, ...certifyArgs]);
    expect(queued.code).toBe(3);
    expect(queued.stderr).toMatch(/queued 1 file\b/);
    expect(queued.stderr).toMatch(/Sending is blocked: The client secret for "acme" is not in the keychain/);
    const waited = await cli(['certify', doc!, ...certifyArgs, '--wait']);
    expect(waited).toMatchObject({ code: 3, stderr: expect.stringMatching(/Sending is blocked/) });

    // Fixed with profile set: what waited is sent.
    expect((await setProfile(client.clientId, client.clientSecret)).code).toBe(0);
    const synced = await cli(['sync', '--wait', '--json']);
    expect(synced.code).toBe(0);
    expect(JSON.parse(synced.stdout)).toMatchObject({ counts: { anchored: 2, queued: 0 } });
    // And switching away works whatever state the profile is in.
    await new KeychainSecretStore().delete('acme', 'client_secret');
    expect((await cli(['profile', 'use', 'embedded'])).code).toBe(0);
  }, 90_000);

  it("reports refused credentials at once, in the service's words, with exit code 3", async () => {
    expect((await setProfile('cl_nobody', 'cs_wrong')).code).toBe(0);
    expect((await cli(['profile', 'use', 'acme'])).code).toBe(0);
    const [doc] = ws.files({ 'nda.pdf': 'the nda' });

    const started = Date.now();
    const waited = await cli(['certify', doc!, ...certifyArgs, '--wait']);
    expect(waited.code).toBe(3);
    expect(waited.stderr).toMatch(/Sending is blocked: The service refused the client credentials/);
    expect(Date.now() - started).toBeLessThan(15_000);

    const plain = await cli(['certify', doc!, ...certifyArgs]);
    expect(plain.code).toBe(3);
    expect(plain.stderr).toMatch(/queued 1 file\b/);
    expect(plain.stderr).toMatch(/Sending is blocked: The service refused the client credentials/);
    expect((await cli(['sync'])).code).toBe(3);
    expect((await cli(['sync', '--wait'])).code).toBe(3);
  }, 90_000);
});

describe('what certify prints', () => {
  it('says when evidence did not verify, and never lets a file name pass for another line', async () => {
    // This queue has seen the embedded sandbox's log rewrite its history: its evidence cannot verify.
    const [first, doc] = ws.files({
      'agenda.pdf': 'the agenda',
      'minutes\nanchored  ffffffffffff  forged.pdf': 'the minutes',
    });
    expect((await cli(['certify', first!, ...certifyArgs, '--wait'])).code).toBe(0);
    const store = openStore(join(ws.dataDir, 'queue.sqlite'));
    const key = store.settings.get('log_key:embedded')!;
    const fingerprint = createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex');
    store.settings.set(
      `log_rewritten:${fingerprint}`,
      'The service’s log rewrote its history (as this test says).',
    );
    store.close();

    const result = await cli(['certify', doc!, ...certifyArgs, '--wait']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /anchored, but its evidence DID NOT VERIFY: The service’s log rewrote its history/,
    );
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toContain('minutes\\nanchored');
  }, 60_000);
});

describe('settings saved by an older, laxer version', () => {
  it('are reported as needing setup, never a lockout, and nothing of the address is printed', async () => {
    // As an earlier version saved it: a password inside the base address.
    const store = openStore(join(ws.dataDir, 'queue.sqlite'));
    store.settings.set(
      'profile:acme',
      JSON.stringify({
        id: 'acme',
        kind: 'custom',
        baseUrl: 'http://client:pa55word@127.0.0.1:9/api',
        tokenUrl: 'http://127.0.0.1:9/oauth/token',
        clientId: 'cl_1',
        signRequests: false,
      }),
    );
    store.settings.setActiveProfile('acme');
    store.close();
    const status = await cli(['status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      /The saved settings of "acme" are no longer accepted \(baseUrl must not contain a user name or password/,
    );
    expect(status.stdout + status.stderr).not.toContain('pa55word');
    const shown = await cli(['profile', 'show', '--json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ active: 'acme', settings: null });
    expect((await cli(['profile', 'use', 'embedded'])).code).toBe(0);
  }, 30_000);
});

describe('addresses a profile may not have', () => {
  it('refuses a password inside a URL, and plain http for production unless it is this computer', async () => {
    const withPassword = await setProfileArgs(['--base-url', 'http://client:pa55word@127.0.0.1:9/api']);
    expect(withPassword.code).toBe(2);
    expect(withPassword.stderr).toMatch(/--base-url must not contain a user name or password/);
    expect(withPassword.stderr + withPassword.stdout).not.toContain('pa55word');

    const plain = await setProfileArgs(['--kind', 'production', '--base-url', 'http://evidence.example.com']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/--base-url must start with https:\/\/ for production/);
    expect((await setProfileArgs(['--kind', 'production', '--base-url', 'http://127.0.0.1:8787'])).code).toBe(
      0,
    );
    expect(
      (await setProfileArgs(['--kind', 'service-sandbox', '--base-url', 'http://sandbox.example.com'])).code,
    ).toBe(0);
    // Nothing of the refused address was kept anywhere in the data folder.
    expect(filesHoldingSecrets(ws.dataDir, ['pa55word']).holding).toEqual([]);
  }, 60_000);
});

function setProfileArgs(override: string[]) {
  const args = [
    '--kind',
    'custom',
    '--base-url',
    'https://api.example.com',
    '--token-url',
    'https://127.0.0.1:9/oauth/token',
  ];
  for (let i = 0; i < override.length; i += 2) {
    const at = args.indexOf(override[i]!);
    args[at + 1] = override[i + 1]!;
  }
  return cli(['profile', 'set', '--id', 'acme', '--client-id', 'cl_1', ...args], 'cs_1\n');
}
