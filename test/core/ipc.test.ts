import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EvidenceCore } from '../../main/core';
import { WINDOWLESS_SHELL, createIpcInvoke, forwardCoreEvents } from '../../main/ipc/handlers';

// No folder is ever chosen here: exporting is exercised in test/evidence and the e2e tests.
import { silentLogger } from '../../main/logging/logger';
import type { EvidenceDeskBridge } from '../../preload/bridge';
import { createBridge } from '../../preload/bridge';
import type { TestWorkspace } from '../support/core';
import { METADATA, openCore, workspace } from '../support/core';
import { WATCH_DEFAULTS } from '../../protocol/watched-folders';

// The renderer's bridge wired to the real core exactly as the preload wires it, with an
// in-process transport standing in for Electron's ipcRenderer/ipcMain (no Electron binary here).
let ws: TestWorkspace;
let core: EvidenceCore;
let bridge: EvidenceDeskBridge;
let stopForwarding: () => void;
beforeEach(async () => {
  ws = workspace('evidence-ipc-');
  core = await openCore(ws.dataDir);
  const invoke = createIpcInvoke(core, silentLogger, WINDOWLESS_SHELL);
  const events = new EventEmitter();
  stopForwarding = forwardCoreEvents(core, (event, payload) => events.emit(event, structuredClone(payload)));
  bridge = createBridge({
    invoke: async (name, input) => structuredClone(await invoke(name, structuredClone(input))),
    subscribe: (event, listener) => {
      events.on(event, listener);
      return () => events.off(event, listener);
    },
    pathForFile: () => '/unused',
  });
});
afterEach(async () => {
  stopForwarding();
  await core.close();
  ws.cleanup();
});

describe('the bridge to the core', () => {
  it('exposes one named function per call and an unsubscribing on… per event', () => {
    expect(Object.keys(bridge).sort()).toEqual(
      [
        'certify',
        'details',
        'exportRegister',
        'saveCertificate',
        'removeChosen',
        'dragOut',
        'cancelExport',
        'showSaved',
        'list',
        'matters',
        'onCommand',
        'onConnectivity',
        'onProgress',
        'onChanges',
        'pathForFile',
        'remove',
        'retry',
        'saveProfile',
        'settings',
        'showInFolder',
        'status',
        'testConnection',
        'tryNow',
        'useProfile',
        'verifyDocument',
        'verifySet',
        'saveSetReport',
        'onSetProgress',
        'exportEvidence',
        'acceptLogKey',
        'setPreferences',
        'setSendingPaused',
        'watchedFolders',
        'chooseFolderToWatch',
        'findDocumentsToRenew',
        'addWatchedFolder',
        'updateWatchedFolder',
        'removeWatchedFolder',
        'setWatchedFolderPaused',
        'onWatchedFolders',
        'onKitProgress',
      ].sort(),
    );
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('certifies through the bridge and streams the changes, with counts, until unsubscribed', async () => {
    const rows: { state: string }[] = [];
    const counts: { anchored: number }[] = [];
    const unsubscribe = bridge.onChanges((changes) => {
      rows.push(...changes.changed);
      counts.push(changes.counts);
    });
    const result = await bridge.certify({ paths: ws.files({ 'a.pdf': 'a' }), metadata: METADATA });
    expect(result).toEqual({ ok: true, value: { queued: 1, problems: [], alreadyCertified: [] } });
    await expect.poll(() => rows.at(-1)?.state, { timeout: 15_000 }).toBe('anchored');
    expect(counts.at(-1)).toMatchObject({ anchored: 1, queued: 0, pending: 0 });
    unsubscribe();
    const seen = rows.length;
    // A listener still subscribed hears b.pdf's batch; by then the unsubscribed one would have too.
    const stillListening: { state: string }[] = [];
    const stop = bridge.onChanges((changes) => stillListening.push(...changes.changed));
    await bridge.certify({ paths: ws.files({ 'b.pdf': 'b' }), metadata: METADATA });
    await expect.poll(() => stillListening.length, { timeout: 15_000 }).toBeGreaterThan(0);
    stop();
    expect(rows).toHaveLength(seen);
  });

  it('watches only a folder the person chose in the folder dialog', async () => {
    const choices = {
      ...WATCH_DEFAULTS,
      matter: null,
      eventType: 'DOCUMENT_FILED',
      assetType: 'document',
    } as const;
    // A window that names a path itself (a compromised renderer) is refused.
    expect(await bridge.addWatchedFolder({ path: ws.dir, choices })).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: 'Choose the folder to watch in the folder dialog.' },
    });
    const invoke = createIpcInvoke(core, silentLogger, {
      ...WINDOWLESS_SHELL,
      chooseFolderToWatch: async () => ws.dir,
    });
    expect(await invoke('chooseFolderToWatch', {})).toEqual({ ok: true, value: ws.dir });
    expect(await invoke('addWatchedFolder', { path: ws.dir, choices })).toMatchObject({
      ok: true,
      value: { path: ws.dir, eventType: 'DOCUMENT_FILED' },
    });
  });

  it("gives the window a set's counts and the first lines of each verdict, not 100,000 lines", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 600 }, (_, i) => [`production/doc-${String(i).padStart(3, '0')}.pdf`, `doc ${i}`]),
    );
    files['production/zzz changed.pdf'] = 'changed after certification';
    ws.files(files);
    const production = join(ws.dir, 'docs', 'production');
    const register = join(ws.dir, 'register.csv');
    const line = (name: string, content: string) =>
      `,${name},${join(production, name)},0,${createHash('sha256').update(content).digest('hex')},anchored`;
    writeFileSync(
      register,
      `\ufeffMatter,File,Path,Size (bytes),SHA-256,State\r\n${[
        ...Object.entries(files)
          .filter(([name]) => !name.includes('zzz'))
          .map(([name, content]) => line(name.slice('production/'.length), content)),
        line('zzz changed.pdf', 'as certified'),
      ].join('\r\n')}\r\n`,
    );
    const answer = await bridge.verifySet({ paths: [production], against: { path: register } });
    if (!answer.ok) throw new Error(answer.error.message);
    const view = answer.value;
    expect(view.summary.counts).toMatchObject({ verified: 600, changed: 1 });
    // 500 lines of all (and so of verified), and the one changed line whose name sorts after them:
    // shown first, as problems are.
    expect(view.linesPerVerdict).toBe(500);
    expect(view.results).toHaveLength(501);
    expect(view.results[0]).toMatchObject({ name: 'zzz changed.pdf', verdict: 'changed' });
    expect(view.results.at(-1)).toMatchObject({ name: 'doc-499.pdf', verdict: 'verified' });
  });

  it('refuses malformed input with a clear error value and never throws', async () => {
    const invoke = createIpcInvoke(core, silentLogger, WINDOWLESS_SHELL);
    expect(await invoke('certify', { paths: 'not a list', metadata: METADATA })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(
      await invoke('certify', { paths: ['/x'], metadata: { ...METADATA, event_type: 'lower case' } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/upper-case words/) },
    });
    expect(await invoke('list', { limit: 5000 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await invoke('details', { id: 'drop table' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await invoke('constructor' as never, {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_call' },
    });
    expect(await invoke('details', { id: 999 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('says in words when a change is not allowed now, never as an internal error', async () => {
    const invoke = createIpcInvoke(core, silentLogger, WINDOWLESS_SHELL);
    const { queued } = await core.certify(ws.files({ 'anchored.pdf': 'anchored' }), METADATA);
    const [row] = await core.sync.waitUntilSettled(queued, 15_000);
    expect(row!.state).toBe('anchored');
    expect(await invoke('retry', { id: row!.id })).toMatchObject({
      ok: false,
      error: {
        code: 'illegal_transition',
        message: 'This certification is anchored now, so it cannot become queued.',
        said: { key: 'queue.illegalTransition' },
      },
    });
  });

  it('saves a profile and switches to it in one call', async () => {
    const result = await bridge.saveProfile({
      profile: {
        id: 'one-call',
        kind: 'custom',
        baseUrl: 'http://127.0.0.1:9',
        tokenUrl: 'http://127.0.0.1:9/oauth/token',
        clientId: 'client-1',
        signRequests: false,
      },
      secrets: { client_secret: 'cs_one-call' },
      use: true,
    });
    expect(result).toEqual({ ok: true, value: null });
    expect(core.activeProfileId).toBe('one-call');
  });

  it('saves settings with secrets going to the keychain, and only says whether they are set', async () => {
    const saved = await bridge.saveProfile({
      profile: {
        id: 'acme',
        kind: 'production',
        baseUrl: 'https://api.example.test',
        tokenUrl: 'https://auth.example.test/oauth/token',
        clientId: 'client-1',
        signRequests: true,
      },
      secrets: { client_secret: 'cs_top-secret-value', hmac_key: 'hk_top-secret-key' },
    });
    expect(saved).toEqual({ ok: true, value: null });
    await core.profiles.use('acme');
    const settings = await bridge.settings({});
    expect(settings).toMatchObject({
      ok: true,
      value: { active: 'acme', secretsSet: { client_secret: true, hmac_key: true, api_secret: false } },
    });
    expect(JSON.stringify(settings)).not.toMatch(/top-secret/);
    const bad = await bridge.saveProfile({
      profile: {
        id: 'Not OK',
        kind: 'custom',
        baseUrl: 'x',
        tokenUrl: 'y',
        clientId: 'c',
        signRequests: false,
      },
      secrets: {},
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
