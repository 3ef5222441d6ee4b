import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_NAMES, EVENTS, channelOf } from '../../preload/channels';
import type { TestWorkspace } from '../support/core';
import { METADATA, openCore, workspace } from '../support/core';

// The BUILT shell (dist/main/main.js, dist/preload/preload.cjs) run under plain Node with a
// RECORDING STAND-IN for the `electron` module (test/electron/standin/): Electron's binary cannot be
// downloaded here, and the real `electron` package is never required. What this proves is what a
// stand-in can: the bundle loads and wires itself as written — secure window, app:// entry, files it
// names present in dist/, a handler for every contract call, menu, tray, closing to the tray while
// work waits, asking before quitting, closing the core — the bundle and path mistakes that would
// otherwise first show on a user's machine. Drawing, real IPC and real dialogs are Electron's.
const DIST = join(process.cwd(), 'dist');

interface Recorded {
  privilegedSchemes: { scheme: string; privileges: Record<string, boolean>; beforeReady: boolean }[];
  windows: {
    options: { webPreferences: Record<string, unknown> };
    visible: boolean;
    destroyed: boolean;
    title?: string;
  }[];
  loadedUrls: string[];
  ipcChannels: string[];
  menus: { label: string; submenu?: { label: string }[] }[][];
  tray: {
    icon: string;
    iconExists: boolean;
    tooltip: string;
    items: { label: string; enabled: boolean }[];
    destroyed?: boolean;
  } | null;
  notifications: { title: string; body: string }[];
  dialogs: { message?: string; buttons?: string[]; defaultId?: number }[];
  guardedContents: number;
  openedExternally: string[];
  openHandlerRefuses?: string;
}

let ws: TestWorkspace;
let shell: ChildProcess;
let output = '';
let nextId = 0;

function ask<T>(order: Record<string, unknown>): Promise<T> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string; id?: number; value?: T }) => {
      if (message.type !== 'answer' || message.id !== id) return;
      shell.off('message', onMessage);
      resolve(message.value as T);
    };
    shell.on('message', onMessage);
    shell.send({ ...order, id }, (error) => error && reject(error));
  });
}
const recorded = () => ask<Recorded>({ type: 'record' });

beforeAll(async () => {
  // The built dist/main bundle: made once per run by the global setup (test/support/build-once.ts).
  ws = workspace('evidence-standin-');
  // A queue with one certification waiting: its profile's secret is not set, so it cannot be sent.
  const core = await openCore(ws.dataDir, { sync: false });
  await core.profiles.save(
    {
      id: 'unreachable',
      kind: 'custom',
      baseUrl: 'http://127.0.0.1:9',
      tokenUrl: 'http://127.0.0.1:9/token',
      clientId: 'nobody',
      signRequests: false,
    },
    {},
  );
  await core.profiles.use('unreachable');
  await core.certify(ws.files({ 'waiting.pdf': 'waits' }), METADATA);
  await core.close();

  shell = spawn(
    process.execPath,
    ['--import', './test/electron/standin/register.mjs', join(DIST, 'main/main.js')],
    {
      env: { ...process.env, EVIDENCE_DESK_DATA_DIR: ws.dataDir, STANDIN_DIR: ws.dir },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  shell.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  shell.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Ready once the tray shows the count; fails with the shell's own output if it never does.
  for (const started = Date.now(); ;) {
    if (shell.exitCode !== null) throw new Error(`The shell exited (${shell.exitCode}):\n${output}`);
    const tooltip = await Promise.race([
      recorded().then((seen) => seen.tray?.tooltip),
      new Promise((resolve) => setTimeout(resolve, 1000)),
    ]);
    if (tooltip === 'Evidence Desk — 1 certification waiting') break;
    if (Date.now() - started > 30_000) throw new Error(`The shell never became ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 120_000);

afterAll(() => {
  if (shell.exitCode === null) shell.kill();
  ws?.cleanup();
});

describe('the built shell on a stand-in for electron', () => {
  it('becomes ready with a secure window on app://, every file it names present in dist/', async () => {
    const seen = await recorded();
    expect(seen.privilegedSchemes).toEqual([
      {
        scheme: 'app',
        privileges: { standard: true, secure: true, supportFetchAPI: false },
        beforeReady: true,
      },
    ]);
    expect(seen.windows).toHaveLength(1);
    const preferences = seen.windows[0]!.options.webPreferences;
    expect(preferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(existsSync(preferences.preload as string), String(preferences.preload)).toBe(true);
    expect(seen.loadedUrls).toEqual(['app://evidence-desk/index.html']);
    // Run from a checkout, it never updates itself (and never loads the updater).
    expect(readFileSync(join(ws.dir, 'logs', 'evidence-desk.log'), 'utf8')).toMatch(
      /updates\.decision.*"enabled":false.*"reason":"not-packaged"/,
    );
    expect(seen.guardedContents).toBeGreaterThanOrEqual(1);
    expect(seen.openHandlerRefuses).toBe('deny');

    // app:// serves the built renderer under the CSP, and nothing outside it.
    const page = await ask<{ status: number; type: string; csp: string; body: string }>({
      type: 'fetch',
      url: 'app://evidence-desk/index.html',
    });
    expect(page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(page.csp).toContain("default-src 'self'");
    expect(page.body).toContain('<!doctype html>');
    const scripts = [
      ...readFileSync(join(DIST, 'renderer/index.html'), 'utf8').matchAll(/src="\.\/([^"]+)"/g),
    ];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, script] of scripts) {
      const asset = await ask<{ status: number }>({ type: 'fetch', url: `app://evidence-desk/${script}` });
      expect(asset.status, script).toBe(200);
    }
    expect(
      (await ask<{ status: number }>({ type: 'fetch', url: 'app://evidence-desk/../main/main.js' })).status,
    ).toBe(404);
  });

  it('answers every contract call from its own page, and refuses a subframe', async () => {
    const seen = await recorded();
    expect([...seen.ipcChannels].sort()).toEqual(CALL_NAMES.map(channelOf).sort());
    const status = await ask<{ ok: boolean; value: { counts: { queued: number }; profile: { id: string } } }>(
      {
        type: 'invoke',
        channel: channelOf('status'),
        input: {},
      },
    );
    expect(status).toMatchObject({
      ok: true,
      value: { counts: { queued: 1 }, profile: { id: 'unreachable' } },
    });
    const refused = await ask<{ ok: boolean; error: { code: string } }>({
      type: 'invoke',
      channel: channelOf('status'),
      input: {},
      from: 'subframe',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('opens the help, installed with the app, in the menus’ language and at the section asked for', async () => {
    await ask({ type: 'menu', menu: 'Help', label: 'Evidence Desk Help' });
    await ask({ type: 'menu', menu: 'Help', label: 'How Others Check Evidence' });
    const opened = (await recorded()).openedExternally.slice(-2);
    expect(opened).toEqual([
      pathToFileURL(join(DIST, 'resources/help/en.html')).href,
      `${pathToFileURL(join(DIST, 'resources/help/en.html')).href}#checking`,
    ]);
    // Each language's page has every section the menu opens, under the same ids.
    for (const page of ['en.html', 'de.html']) {
      const html = readFileSync(join(DIST, 'resources/help', page), 'utf8');
      expect([...html.matchAll(/<h2 id="([^"]+)"/g)].map((match) => match[1])).toEqual([
        'certify',
        'hand-over',
        'checking',
        'verify',
        'watch',
        'problems',
        'keys',
      ]);
    }
  });

  it('builds the menu and the tray, in words', async () => {
    const seen = await recorded();
    const fileMenu = seen.menus.at(-1)?.find((menu) => menu.label === 'File');
    expect(fileMenu?.submenu?.map((item) => item.label)).toEqual(
      expect.arrayContaining(['Add Files…', 'Add Folder…', 'Verify a File…']),
    );
    expect(seen.tray).toMatchObject({
      iconExists: true,
      items: [
        { label: 'Open Evidence Desk', enabled: true },
        { label: 'Sync now', enabled: true },
        { label: 'Pause sending', enabled: true },
        { label: 'Quit Evidence Desk', enabled: true },
      ],
    });
    expect(seen.windows[0]?.title).toBe('Evidence Desk — 1 waiting');
  });

  it('keeps running in the tray when its window closes with work waiting, and says so', async () => {
    expect(await ask<{ closed: boolean }>({ type: 'close-window' })).toEqual({ closed: false });
    const seen = await recorded();
    expect(seen.windows[0]).toMatchObject({ visible: false, destroyed: false });
    expect(seen.notifications).toContainEqual({
      title: 'Evidence Desk is still working',
      body: 'It keeps sending in the background. Open it again from the tray.',
    });
    expect(shell.exitCode).toBeNull();
  });

  it('asks before quitting with work waiting; kept running it stays, told to quit it closes the core and exits 0', async () => {
    await ask({ type: 'quit', answer: 1 });
    await expect.poll(async () => (await recorded()).dialogs.length).toBe(1);
    expect((await recorded()).dialogs[0]).toEqual({
      message: '1 certification has not been anchored yet.',
      buttons: ['Quit anyway', 'Keep running'],
      defaultId: 1,
    });
    expect(shell.exitCode).toBeNull();

    const exited = new Promise<number | null>((resolve) => shell.once('exit', (code) => resolve(code)));
    await ask({ type: 'quit', answer: 0 });
    expect(await exited, output).toBe(0);
    // The core closed cleanly: the queue opens again with its certification still waiting.
    const core = await openCore(ws.dataDir, { sync: false });
    try {
      expect(core.status().counts.queued).toBe(1);
    } finally {
      await core.close();
    }
  }, 30_000);
});

describe('the built preload in a sandboxed preload’s world', () => {
  it('requires only electron and exposes exactly the bridge, frozen', async () => {
    const exposed: Record<string, Record<string, unknown>> = {};
    const invoked: unknown[][] = [];
    // What a sandboxed preload gets: a require that knows electron (and a few polyfilled modules), no Node.
    const electron = {
      contextBridge: {
        exposeInMainWorld: (name: string, api: Record<string, unknown>) => (exposed[name] = api),
      },
      ipcRenderer: {
        invoke: async (...args: unknown[]) => (invoked.push(args), { ok: true, value: null }),
        on: () => undefined,
        off: () => undefined,
      },
      webUtils: { getPathForFile: () => '/a/path' },
    };
    const requested: string[] = [];
    const sandboxRequire = (name: string) => {
      requested.push(name);
      if (name === 'electron') return electron;
      throw new Error(`a sandboxed preload cannot require "${name}"`);
    };
    const module = { exports: {} };
    runInNewContext(readFileSync(join(DIST, 'preload/preload.cjs'), 'utf8'), {
      require: sandboxRequire,
      module,
      exports: module.exports,
    });
    expect(requested).toEqual(['electron']);
    expect(Object.keys(exposed)).toEqual(['evidenceDesk']);
    const bridge = exposed.evidenceDesk!;
    const events = EVENTS.map((event) => `on${event[0]!.toUpperCase()}${event.slice(1)}`);
    expect(Object.keys(bridge).sort()).toEqual([...CALL_NAMES, ...events, 'pathForFile'].sort());
    expect(Object.isFrozen(bridge)).toBe(true);
    await (bridge.status as (input: object) => Promise<unknown>)({});
    expect(invoked).toEqual([[channelOf('status'), {}]]);
  });
});
