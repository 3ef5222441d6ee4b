import { ipcMain } from 'electron';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import type { EvidenceCore } from '../core';
import { createIpcInvoke, forwardCoreEvents } from '../ipc/handlers';
import type { Logger } from '../logging/logger';
import type { CallName, EventName } from '../../preload/contract';
import { CALLS, channelOf, eventChannelOf } from '../../preload/contract';

/** Wires every contract call to the core for one window, and the core's events back to it. */
export function wireIpc(
  core: EvidenceCore,
  window: BrowserWindow,
  log: Logger,
): { send(event: EventName, payload: unknown): void; dispose(): void } {
  const invoke = createIpcInvoke(core, log);
  const fromOurWindow = (event: IpcMainInvokeEvent) =>
    event.sender.id === window.webContents.id && event.senderFrame?.url.startsWith(expectedOrigin(window));
  for (const name of Object.keys(CALLS) as CallName[]) {
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
      return invoke(name, input);
    });
  }
  const send = (event: EventName, payload: unknown) => {
    if (!window.isDestroyed()) window.webContents.send(eventChannelOf(event), payload);
  };
  const stopForwarding = forwardCoreEvents(core, send);
  return {
    send,
    dispose: () => {
      stopForwarding();
      for (const name of Object.keys(CALLS) as CallName[]) ipcMain.removeHandler(channelOf(name));
    },
  };
}

function expectedOrigin(window: BrowserWindow): string {
  const url = new URL(window.webContents.getURL());
  return url.protocol === 'file:' ? 'file://' : url.origin;
}
