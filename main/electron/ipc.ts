import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, ipcMain, nativeImage, shell } from 'electron';
import { kitFolderIn } from '../evidence/evidence-exports';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import type { EvidenceCore } from '../core';
import type { EventSender } from '../ipc/handlers';
import { createIpcInvoke, forwardCoreEvents } from '../ipc/handlers';
import type { Logger } from '../logging/logger';
import type { LanguageChoice } from '../../protocol/locales';
import { shellText } from './shell-language';
import type { Catalogue } from '../../protocol/locales/en';
import { AT_LOGIN_ARG } from '../desktop-policy/login';
import { isAppPage } from '../desktop-policy/app-scheme';
import type { CallName } from '../../preload/contract';
import { CALL_NAMES, channelOf, eventChannelOf } from '../../preload/contract';

/** Wires every contract call to the core for one window, and the core's events back to it. */
export function wireIpc(
  core: EvidenceCore,
  window: BrowserWindow,
  log: Logger,
  onLanguage: (language: LanguageChoice) => void,
): { send: EventSender; dispose(): void } {
  const t = shellText;
  /** The native save dialog, in Documents under the suggested name; null when the person cancelled. */
  const saveAs = async (
    suggestedName: string,
    extension: string,
    words: Record<'title' | 'button' | 'filter', keyof Catalogue['shell']['dialogs']>,
  ): Promise<string | null> => {
    const answer = await dialog.showSaveDialog(window, {
      title: t()(`dialogs.${words.title}`),
      defaultPath: join(app.getPath('documents'), suggestedName),
      buttonLabel: t()(`dialogs.${words.button}`),
      filters: [{ name: t()(`dialogs.${words.filter}`), extensions: [extension] }],
    });
    return answer.canceled || !answer.filePath ? null : answer.filePath;
  };
  const invoke = createIpcInvoke(core, log, {
    chooseExportFolder: async () => {
      const answer = await dialog.showOpenDialog(window, {
        title: t()('dialogs.saveKit'),
        buttonLabel: t()('dialogs.saveHere'),
        properties: ['openDirectory', 'createDirectory'],
      });
      // A kit in its own new folder, so it never mixes with what the chosen folder holds.
      return answer.canceled || !answer.filePaths[0] ? null : kitFolderIn(answer.filePaths[0]);
    },
    chooseFolderToWatch: async () => {
      const answer = await dialog.showOpenDialog(window, {
        title: t()('dialogs.watchFolder'),
        buttonLabel: t()('dialogs.watchHere'),
        properties: ['openDirectory', 'createDirectory'],
      });
      return answer.canceled || !answer.filePaths[0] ? null : answer.filePaths[0];
    },
    chooseDocumentsFolder: async () => {
      const answer = await dialog.showOpenDialog(window, {
        title: t()('dialogs.documentsFolder'),
        buttonLabel: t()('dialogs.lookHere'),
        properties: ['openDirectory'],
      });
      return answer.canceled || !answer.filePaths[0] ? null : answer.filePaths[0];
    },
    chooseRegisterFile: (suggestedName) =>
      saveAs(suggestedName, 'csv', { title: 'exportRegister', button: 'export', filter: 'csvFilter' }),
    chooseReportFile: (suggestedName, format) =>
      saveAs(suggestedName, format, {
        title: 'saveReport',
        button: 'export',
        filter: format === 'pdf' ? 'pdfFilter' : 'csvReportFilter',
      }),
    chooseCertificateFile: (suggestedName) =>
      saveAs(suggestedName, 'pdf', { title: 'saveCertificate', button: 'save', filter: 'certificateFilter' }),
    showInFolder: (path) => shell.showItemInFolder(path),
    // macOS requires an image under the pointer: the app's seal.
    startDrag: (file) =>
      window.webContents.startDrag({
        file,
        icon: nativeImage.createFromPath(
          fileURLToPath(new URL('../resources/tray/tray.png', import.meta.url)),
        ),
      }),
    // The OS keeps this (login items on macOS, the Run key on Windows); Linux has no such API.
    launchAtLogin: () => (process.platform === 'linux' ? null : app.getLoginItemSettings().openAtLogin),
    setLaunchAtLogin: (on) => app.setLoginItemSettings({ openAtLogin: on, args: [AT_LOGIN_ARG] }),
    languageChanged: onLanguage,
  });
  // Our window, its main frame (never a subframe), showing our page from app:// (never anything else).
  const fromOurWindow = (event: IpcMainInvokeEvent) =>
    event.sender.id === window.webContents.id &&
    event.senderFrame !== null &&
    event.senderFrame === window.webContents.mainFrame &&
    isAppPage(event.senderFrame.url);
  for (const name of CALL_NAMES) {
    ipcMain.handle(channelOf(name), (event, input: unknown) => {
      if (!fromOurWindow(event)) {
        log.log('warn', 'ipc.foreign_sender', { call: name });
        return {
          ok: false,
          error: {
            code: 'forbidden',
            message: 'Refused: the request did not come from the Evidence Desk window.',
          },
        };
      }
      return invoke(name as CallName, input);
    });
  }
  const send: EventSender = (event, payload) => {
    if (!window.isDestroyed()) window.webContents.send(eventChannelOf(event), payload);
  };
  const stopForwarding = forwardCoreEvents(core, send);
  return {
    send,
    dispose: () => {
      stopForwarding();
      for (const name of CALL_NAMES) ipcMain.removeHandler(channelOf(name));
    },
  };
}
