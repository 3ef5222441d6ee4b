// The Electron shell: window, lifecycle, menus, badge, notifications and IPC wiring on the core.
// Everything else is the plain-Node core, tested without Electron.
import { BrowserWindow, Menu, Notification, Tray, app, dialog, nativeImage, net } from 'electron';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedSandbox } from '../../sandbox/embedded';
import { EvidenceCore } from '../core';
import { PRODUCT_NAME, defaultDataDir } from '../config/data-dir';
import { fileLogger } from '../logging/logger';
import { KeychainSecretStore } from '../secrets/secret-store';
import { isDeskError } from '../errors';
import type { StateCounts } from '../../protocol/states';
import { waitingCount } from '../../protocol/states';
import type { Notice, ShellText, TrayAction } from '../desktop-policy/background';
import {
  NotificationPlanner,
  closeKeepsRunning,
  quitQuestion,
  trayModel,
  windowTitle,
} from '../desktop-policy/background';
import { AT_LOGIN_ARG, commandLineArgs } from '../desktop-policy/login';
import { setShellLanguage } from './shell-language';
import { startUpdates } from './updates';
import { wireIpc } from './ipc';
import { installMenu } from './menu';
import { APP_ENTRY } from '../desktop-policy/app-scheme';
import { SECURE_WEB_PREFERENCES, guardAllWebContents, registerAppScheme, serveRenderer } from './security';
import { loadWindowState, saveWindowState } from './window-state';
import { sayWith } from '../../protocol/locales';

const here = fileURLToPath(new URL('.', import.meta.url));
app.setName(PRODUCT_NAME);
const dataDir = defaultDataDir();
app.setPath('userData', dataDir);
const log = fileLogger(join(app.getPath('logs'), 'evidence-desk.log'));

const commandLine = commandLineArgs(process.argv);
if (commandLine) void runAsCommandLine(commandLine);
else {
  registerAppScheme();
  // One instance: a second launch hands its file paths to the first and quits.
  if (!app.requestSingleInstanceLock({ paths: pathsFromArgs(process.argv) })) app.quit();
  else void start();
}

/**
 * `Evidence Desk --cli COMMAND …` (what the installers' `evidence-desk` launcher runs): the command
 * line in this process, without a window, on the same data folder and keychain as the app, so the
 * two share one queue. The RunAsNode fuse stays off: this runs our code only.
 */
async function runAsCommandLine(args: string[]): Promise<void> {
  app.dock?.hide();
  const { runCommandLine } = await import('../cli');
  const code = (await runCommandLine(args)) ?? 0;
  // A window program's exit code does not pass through the pipe the Windows launcher reads its
  // output from: it reads the code from this file instead.
  const exitFile = process.env.EVIDENCE_DESK_EXIT_FILE;
  if (exitFile) writeFileSync(exitFile, String(code));
  app.exit(code);
}

async function start(): Promise<void> {
  await app.whenReady();
  guardAllWebContents();
  serveRenderer(join(here, '../renderer'));
  let core: EvidenceCore;
  try {
    core = await EvidenceCore.open({
      dataDir,
      secrets: new KeychainSecretStore(),
      log,
      // Chromium's network stack: the system proxy, PAC files and the OS certificate store apply.
      networkFor: () => (input, init) => net.fetch(input instanceof URL ? input.href : input, init),
      startEmbedded: embeddedSandbox(),
      // The app watches its watched folders while it runs, also when only the tray is left.
      watch: true,
    });
  } catch (error) {
    const t = setShellLanguage('system');
    dialog.showErrorBox(
      t('dialogs.cannotStart'),
      isDeskError(error) ? sayWith(t)(error.said) : (error as Error).message,
    );
    app.exit(3);
    return;
  }
  let t = setShellLanguage(core.preferences.language);
  const state = loadWindowState(dataDir);
  const window = new BrowserWindow({
    ...state,
    minWidth: 720,
    minHeight: 480,
    title: PRODUCT_NAME,
    show: false,
    webPreferences: {
      ...SECURE_WEB_PREFERENCES,
      devTools: !app.isPackaged,
      preload: join(here, '../preload/preload.cjs'),
    },
  });
  if (state.maximized) window.maximize();
  const open = () => {
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  const background = new BackgroundShell(core, window, open, () => t);
  const updates = await startUpdates(
    log,
    () => t,
    (title, body) => notify({ title, body }),
  );
  const menu = () =>
    installMenu(
      window,
      (command) => ipc.send('command', command),
      t,
      { decision: updates.decision, check: updates.check },
      join(here, '../resources/help'),
    );
  const ipc = wireIpc(core, window, log, (language) => {
    t = setShellLanguage(language);
    menu();
    background.refresh();
  });
  menu();
  updates.check();

  // Started at login: straight to the tray, sending what waits, until the person opens it.
  const atLogin = process.argv.includes(AT_LOGIN_ARG) || app.getLoginItemSettings().wasOpenedAtLogin;
  const pending = pathsFromArgs(process.argv);
  window.once('ready-to-show', () => {
    if (!atLogin || pending.length) window.show();
    if (pending.length) ipc.send('command', { kind: 'add-paths', paths: pending });
  });
  app.on('second-instance', (_event, _argv, _cwd, data) => {
    open();
    const paths = (data as { paths?: string[] } | undefined)?.paths ?? [];
    if (paths.length) ipc.send('command', { kind: 'add-paths', paths });
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    ipc.send('command', { kind: 'add-paths', paths: [path] });
  });
  app.on('activate', open);
  window.on('close', (event) => {
    saveWindowState(dataDir, { ...window.getNormalBounds(), maximized: window.isMaximized() });
    if (background.keepsRunningOnClose()) {
      event.preventDefault();
      window.hide();
    }
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (!background.mayQuit()) event.preventDefault();
  });
  app.on('will-quit', (event) => {
    event.preventDefault();
    background.dispose();
    ipc.dispose();
    // An update installs only now, with the queue closed: never while a sync is writing.
    void core.close().finally(() => updates.installIfReady() || app.exit(0));
  });
  await window.loadURL(APP_ENTRY);
}

/**
 * The app's life outside its window: the tray with its count and menu, the badge and title,
 * notifications (fired from the change stream, so they come whether the window is open or not),
 * closing to the tray while work waits, and asking before quitting with work waiting.
 */
class BackgroundShell {
  private readonly tray: Tray;
  private readonly notifications: NotificationPlanner;
  private readonly stopWatching: () => void;
  private counts: StateCounts;
  private quitting = false;
  private toldStillRunning = false;

  constructor(
    private readonly core: EvidenceCore,
    private readonly window: BrowserWindow,
    private readonly open: () => void,
    private readonly t: () => ShellText,
  ) {
    this.counts = core.status().counts;
    this.tray = new Tray(trayIcon());
    this.tray.on('click', open);
    this.notifications = new NotificationPlanner(t, (ids) => core.queue.rows(ids), notify);
    this.stopWatching = core.onChanges((changes) => {
      this.counts = changes.counts;
      this.notifications.onChanges(changes);
      this.refresh();
    });
    core.on('connectivity', this.refresh);
    core.watched.on('changed', this.refresh);
    this.refresh();
  }

  // An arrow property: the same function is added as a listener and removed again in dispose().
  readonly refresh = (): void => {
    const t = this.t();
    const folders = this.core.watched.list().filter((folder) => !folder.paused);
    const model = trayModel(this.counts, this.core.sync.paused, t, {
      folders: folders.length,
      notWatching: folders.filter((folder) => folder.status === 'unavailable').length,
    });
    this.tray.setToolTip(model.tooltip);
    if (process.platform === 'darwin') this.tray.setTitle(model.title);
    this.tray.setContextMenu(
      Menu.buildFromTemplate(
        model.items.map((item) => ({
          label: item.label,
          enabled: item.enabled,
          click: () => this.act(item.action),
        })),
      ),
    );
    app.setBadgeCount(waitingCount(this.counts));
    if (!this.window.isDestroyed()) this.window.setTitle(windowTitle(this.counts, t));
  };

  private act(action: TrayAction): void {
    if (action === 'open') this.open();
    else if (action === 'sync-now') this.core.sync.tryNow();
    else if (action === 'pause') void this.core.sync.pause().then(() => this.refresh());
    else if (action === 'resume') {
      this.core.sync.resume();
      this.refresh();
    } else app.quit();
  }

  /** Closing hides to the tray while anything waits (said once), unless the app is quitting. */
  keepsRunningOnClose(): boolean {
    if (this.quitting || !closeKeepsRunning(this.counts)) return false;
    if (!this.toldStillRunning) {
      this.toldStillRunning = true;
      const t = this.t();
      notify({ title: t('stillRunning.title'), body: t('stillRunning.body') });
    }
    return true;
  }

  /** True when quitting may go ahead; otherwise asks (work is waiting) and quits if told to. */
  mayQuit(): boolean {
    if (this.quitting) return true;
    const question = quitQuestion(this.counts, this.t());
    if (!question) {
      this.quitting = true;
      return true;
    }
    this.open();
    void dialog
      .showMessageBox(this.window, { type: 'question', noLink: true, ...question })
      .then(({ response }) => {
        if (response !== 0) return;
        this.quitting = true;
        app.quit();
      });
    return false;
  }

  dispose(): void {
    this.stopWatching();
    this.core.off('connectivity', this.refresh);
    this.core.watched.off('changed', this.refresh);
    this.notifications.dispose();
    this.tray.destroy();
  }
}

function notify(notice: Notice): void {
  if (Notification.isSupported()) new Notification(notice).show();
}

/** A template image on macOS (the menu bar tints it), the coloured seal elsewhere. */
function trayIcon(): Electron.NativeImage {
  const name = process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png';
  return nativeImage.createFromPath(join(here, '../resources/tray', name));
}

/** File paths given on the command line ("Open with", drag onto the app icon). */
function pathsFromArgs(argv: readonly string[]): string[] {
  return argv.slice(app.isPackaged ? 1 : 2).filter((arg) => !arg.startsWith('-') && arg !== '.');
}
