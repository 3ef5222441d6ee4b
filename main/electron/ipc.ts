import { join } from 'node:path';
import { app, dialog, ipcMain, shell } from 'electron';
import { kitFolderIn } from '../evidence/kit';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import type { EvidenceCore } from '../core';
import type { EventSender } from '../ipc/handlers';
import { createIpcInvoke, forwardCoreEvents } from '../ipc/handlers';
import type { Logger } from '../logging/logger';
import type { CallName } from '../../preload/contract';
import { CALL_NAMES, channelOf, eventChannelOf } from '../../preload/contract';

/** Wires every contract call to the core for one window, and the core's events back to it. */
export function wireIpc(
  core: EvidenceCore,
  window: BrowserWindow,
  log: Logger,
): { send: EventSender; dispose(): void } {
  const invoke = createIpcInvoke(core, log, {
    chooseExportFolder: async () => {
      const answer = await dialog.showOpenDialog(window, {
        title: 'Save the evidence kit in…',
        buttonLabel: 'Save here',
        properties: ['openDirectory', 'createDirectory'],
      });
      // A kit in its own new folder, so it never mixes with what the chosen folder holds.
      return answer.canceled || !answer.filePaths[0] ? null : kitFolderIn(answer.filePaths[0]);
    },
    chooseRegisterFile: async (suggestedName) => {
      const answer = await dialog.showSaveDialog(window, {
        title: 'Export the register',
        defaultPath: join(app.getPath('documents'), suggestedName),
        buttonLabel: 'Export',
        filters: [{ name: 'Register for Excel (CSV)', extensions: ['csv'] }],
      });
      return answer.canceled || !answer.filePath ? null : answer.filePath;
    },
    showInFolder: (path) => shell.showItemInFolder(path),
  });
  const fromOurWindow = (event: IpcMainInvokeEvent) =>
    event.sender.id === window.webContents.id && event.senderFrame?.url.startsWith(expectedOrigin(window));
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

function expectedOrigin(window: BrowserWindow): string {
  const url = new URL(window.webContents.getURL());
  return url.protocol === 'file:' ? 'file://' : url.origin;
}
