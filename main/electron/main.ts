// The Electron shell: window, lifecycle, menus, badge, notifications and IPC wiring on the core.
// Everything else is the plain-Node core, tested without Electron.
import { BrowserWindow, Notification, app } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EvidenceCore } from '../core';
import { PRODUCT_NAME, defaultDataDir } from '../config/data-dir';
import { fileLogger } from '../logging/logger';
import { KeychainSecretStore } from '../secrets/secret-store';
import { waitingCount } from '../../protocol/states';
import { wireIpc } from './ipc';
import { installMenu } from './menu';
import { SECURE_WEB_PREFERENCES, lockDown } from './security';
import { loadWindowState, saveWindowState } from './window-state';

const here = fileURLToPath(new URL('.', import.meta.url));
app.setName(PRODUCT_NAME);
const dataDir = defaultDataDir();
app.setPath('userData', dataDir);
const log = fileLogger(join(app.getPath('logs'), 'evidence-desk.log'));

// One instance: a second launch hands its file paths to the first and quits.
if (!app.requestSingleInstanceLock({ paths: pathsFromArgs(process.argv) })) app.quit();
else void start();

async function start(): Promise<void> {
  await app.whenReady();
  let core: EvidenceCore;
  try {
    core = await EvidenceCore.open({ dataDir, secrets: new KeychainSecretStore(), log });
  } catch (error) {
    const { dialog } = await import('electron');
    dialog.showErrorBox('Evidence Desk cannot start', (error as Error).message);
    app.exit(3);
    return;
  }
  const state = loadWindowState(dataDir);
  const window = new BrowserWindow({
    ...state,
    minWidth: 720,
    minHeight: 480,
    title: PRODUCT_NAME,
    show: false,
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: join(here, '../preload/preload.cjs') },
  });
  if (state.maximized) window.maximize();
  lockDown(window);
  const ipc = wireIpc(core, window, log);
  installMenu(window, (command) => ipc.send('command', command));
  watchForBadgeAndNotifications(core, window);

  const pending = pathsFromArgs(process.argv);
  window.once('ready-to-show', () => {
    window.show();
    if (pending.length) ipc.send('command', { kind: 'add-paths', paths: pending });
  });
  app.on('second-instance', (_event, _argv, _cwd, data) => {
    if (window.isMinimized()) window.restore();
    window.focus();
    const paths = (data as { paths?: string[] } | undefined)?.paths ?? [];
    if (paths.length) ipc.send('command', { kind: 'add-paths', paths });
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    ipc.send('command', { kind: 'add-paths', paths: [path] });
  });
  window.on('close', () =>
    saveWindowState(dataDir, { ...window.getNormalBounds(), maximized: window.isMaximized() }),
  );
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', (event) => {
    event.preventDefault();
    ipc.dispose();
    void core.close().finally(() => app.exit(0));
  });
  await window.loadFile(join(here, '../renderer/index.html'));
}

/**
 * The dock/taskbar badge and the title count what is waiting; a notification says when a batch is
 * done or something failed. All from the change stream: one count per tick, whatever the batch size.
 */
function watchForBadgeAndNotifications(core: EvidenceCore, window: BrowserWindow): void {
  let anchoredSinceQuiet = 0;
  let quietTimer: NodeJS.Timeout | undefined;
  core.onChanges((changes) => {
    const waiting = waitingCount(changes.counts);
    app.setBadgeCount(waiting);
    if (!window.isDestroyed())
      window.setTitle(waiting ? `${PRODUCT_NAME} — ${waiting} waiting` : PRODUCT_NAME);
    const failed = changes.changed.filter((change) => change.state === 'failed').map((change) => change.id);
    for (const row of core.rows(failed)) {
      new Notification({
        title: 'A certification failed',
        body: `${row.fileName}: ${row.errorMessage ?? 'see Evidence Desk for the reason'}`,
      }).show();
    }
    anchoredSinceQuiet += changes.changed.filter((change) => change.state === 'anchored').length;
    clearTimeout(quietTimer);
    if (waiting === 0 && anchoredSinceQuiet > 0) {
      quietTimer = setTimeout(() => {
        new Notification({
          title: 'Certifications anchored',
          body: `${anchoredSinceQuiet} certification(s) are anchored and verifiable.`,
        }).show();
        anchoredSinceQuiet = 0;
      }, 1500);
    }
  });
}

/** File paths given on the command line ("Open with", drag onto the app icon). */
function pathsFromArgs(argv: readonly string[]): string[] {
  return argv.slice(app.isPackaged ? 1 : 2).filter((arg) => !arg.startsWith('-') && arg !== '.');
}
