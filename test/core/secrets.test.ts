import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EvidenceCore } from '../../main/core';
import { KeychainSecretStore } from '../../main/secrets/secret-store';
import type { Sandbox } from '../../sandbox/server';
import type { TestWorkspace } from '../support/core';
import { METADATA, TEST_KEYCHAIN_SERVICE, filesHoldingSecrets, openCore, workspace } from '../support/core';
import { startTestSandbox } from '../support/sandbox';

// Everything here runs against the real OS keychain (gnome-keyring under `npm test` on Linux).
describe('secrets in the OS keychain', () => {
  it('stores, reads and deletes secrets per profile', async () => {
    const store = new KeychainSecretStore(TEST_KEYCHAIN_SERVICE);
    await store.set('alpha', 'client_secret', 'cs_alpha');
    await store.set('beta', 'client_secret', 'cs_beta');
    expect(await store.get('alpha', 'client_secret')).toBe('cs_alpha');
    expect(await store.get('beta', 'client_secret')).toBe('cs_beta');
    expect(await store.delete('alpha', 'client_secret')).toBe(true);
    expect(await store.get('alpha', 'client_secret')).toBeNull();
    expect(await store.delete('alpha', 'client_secret')).toBe(false);
    await store.delete('beta', 'client_secret');
  });
});

describe('a service profile', () => {
  let ws: TestWorkspace;
  let sandbox: Sandbox;
  let core: EvidenceCore | undefined;
  beforeEach(async () => {
    ws = workspace();
    sandbox = await startTestSandbox({ batchIntervalMs: 200 });
  });
  afterEach(async () => {
    await core?.close();
    core = undefined;
    await sandbox.stop();
    ws.cleanup();
  });

  it('keeps its secrets in the keychain and nowhere in the queue files, and certifies with them', async () => {
    const client = sandbox.createClient({
      name: 'keychain test',
      requireSignature: true,
      requireApiKey: true,
    });
    core = await openCore(ws.dataDir);
    await core.profiles.save(
      {
        id: 'acme-sandbox',
        kind: 'service-sandbox',
        baseUrl: sandbox.baseUrl,
        tokenUrl: sandbox.tokenUrl,
        clientId: client.clientId,
        apiKey: client.apiKey,
        signRequests: true,
      },
      { client_secret: client.clientSecret, api_secret: client.apiSecret, hmac_key: client.hmacKey },
    );
    expect(await core.profiles.secretsSet('acme-sandbox')).toEqual({
      client_secret: true,
      api_secret: true,
      hmac_key: true,
    });
    expect(await new KeychainSecretStore(TEST_KEYCHAIN_SERVICE).get('acme-sandbox', 'hmac_key')).toBe(
      client.hmacKey,
    );

    await core.profiles.use('acme-sandbox');
    expect(await core.profiles.test()).toMatchObject({ ok: true });
    const report = await core.certify(ws.files({ 'deed.pdf': 'deed' }), METADATA);
    const [row] = await core.sync.waitUntilSettled(report.queued, 20_000);
    expect(row).toMatchObject({ state: 'anchored', verification: 'verified' });
    await core.close();
    core = undefined;

    const scan = filesHoldingSecrets(ws.dataDir, [client.clientSecret, client.apiSecret, client.hmacKey]);
    expect(scan.files).toEqual(expect.arrayContaining(['queue.sqlite', 'logs/evidence-desk.log']));
    expect(scan.holding).toEqual([]);
  });

  it('says plainly when the credentials are wrong', async () => {
    core = await openCore(ws.dataDir);
    await core.profiles.save(
      {
        id: 'wrong',
        kind: 'custom',
        baseUrl: sandbox.baseUrl,
        tokenUrl: sandbox.tokenUrl,
        clientId: sandbox.demoClient.clientId,
        signRequests: false,
      },
      { client_secret: 'cs_not-the-secret' },
    );
    const result = await core.profiles.test('wrong');
    expect(result).toMatchObject({
      ok: false,
      code: 'auth_failed',
      message: expect.stringMatching(/refused the client credentials.*not right/),
    });
  });
});
