import { join } from 'node:path';
import { app, dialog, ipcMain, shell } from 'electron';
import { kitFolderIn } from '../evidence/evidence-exports';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import type { EvidenceCore } from '../core';
import type { EventSender } from '../ipc/handlers';
import { createIpcInvoke, forwardCoreEvents } from '../ipc/handlers';
import type { Logger } from '../logging/logger';
import type { LanguageChoice } from '../../protocol/locales';
import { shellText } from './shell-language';
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
    chooseRegisterFile: async (suggestedName) => {
      const answer = await dialog.showSaveDialog(window, {
        title: t()('dialogs.exportRegister'),
        defaultPath: join(app.getPath('documents'), suggestedName),
        buttonLabel: t()('dialogs.export'),
        filters: [{ name: t()('dialogs.csvFilter'), extensions: ['csv'] }],
      });
      return answer.canceled || !answer.filePath ? null : answer.filePath;
    },
    chooseReportFile: async (suggestedName, format) => {
      const answer = await dialog.showSaveDialog(window, {
        title: t()('dialogs.saveReport'),
        defaultPath: join(app.getPath('documents'), suggestedName),
        buttonLabel: t()('dialogs.export'),
        filters: [
          {
            name: t()(format === 'pdf' ? 'dialogs.pdfFilter' : 'dialogs.csvReportFilter'),
            extensions: [format],
          },
        ],
      });
      return answer.canceled || !answer.filePath ? null : answer.filePath;
    },
    showInFolder: (path) => shell.showItemInFolder(path),
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
