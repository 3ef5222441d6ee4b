import Database from 'better-sqlite3';
import keytar from 'keytar';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';

// The two native modules the app is built on, loaded exactly as the app will load them.
// keytar talks to the real OS keychain: on Linux the gnome-keyring that `npm test` starts.
describe('native modules', () => {
  it('better-sqlite3 loads its prebuilt Node-API binary and opens a WAL database', () => {
    const db = new Database(':memory:');
    expect(db.prepare('SELECT sqlite_version() AS v').get()).toMatchObject({
      v: expect.stringMatching(/^3\./),
    });
    db.close();
  });

  it('keytar stores, reads and deletes a secret in the real OS keychain', async () => {
    const service = `evidence-desk-test-${randomUUID()}`;
    await keytar.setPassword(service, 'client-secret', 'cs_round-trip');
    try {
      expect(await keytar.getPassword(service, 'client-secret')).toBe('cs_round-trip');
    } finally {
      expect(await keytar.deletePassword(service, 'client-secret')).toBe(true);
    }
    expect(await keytar.getPassword(service, 'client-secret')).toBeNull();
  });
});
