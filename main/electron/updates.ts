import { app } from 'electron';
import type { Logger } from '../logging/logger';
import type { ShellText } from '../desktop-policy/background';
import type { UpdateDecision } from '../desktop-policy/update-policy';
import { readPolicy, updateDecision } from '../desktop-policy/update-policy';

export interface Updates {
  decision: UpdateDecision;
  check(): void;
  /** After the core has closed: installs a downloaded update and relaunches (true), or does nothing. */
  installIfReady(): boolean;
}

/**
 * Updates from the release feed (electron-updater): checked at start and from the menu,
 * downloaded in the background, installed only on quit and only after the core has closed, so
 * never while a sync is writing. Off by policy, in MSI installs and in unpackaged runs.
 */
export async function startUpdates(
  log: Logger,
  t: () => ShellText,
  notify: (title: string, body: string) => void,
): Promise<Updates> {
  const decision = updateDecision({
    packaged: app.isPackaged,
    platform: process.platform,
    env: process.env,
    execPath: process.execPath,
    policyDisables: await readPolicy(process.platform),
  });
  log.log('info', 'updates.decision', { ...decision });
  if (!decision.enabled) return { decision, check: () => undefined, installIfReady: () => false };

  // Loaded only when updating is allowed: an unpackaged or managed install never touches it.
  const { autoUpdater } = await import('electron-updater');
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = false;
  let downloaded = false;
  autoUpdater.on('update-downloaded', (info) => {
    downloaded = true;
    notify(t()('notify.updateReadyTitle'), t()('notify.updateReadyBody', { version: info.version }));
  });
  autoUpdater.on('error', (error) => log.log('warn', 'updates.failed', { error: error.message }));
  return {
    decision,
    check: () => void autoUpdater.checkForUpdates().catch(() => undefined),
    installIfReady: () => {
      if (!downloaded) return false;
      autoUpdater.quitAndInstall(true, true);
      return true;
    },
  };
}
