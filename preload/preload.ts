// The preload: feeds the bridge factory with Electron's IPC and file-path lookup, nothing more.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { createBridge } from './bridge';
import { channelOf, eventChannelOf } from './channels';

contextBridge.exposeInMainWorld(
  'evidenceDesk',
  createBridge({
    invoke: (name, input) => ipcRenderer.invoke(channelOf(name), input),
    subscribe: (event, listener) => {
      const handler = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(eventChannelOf(event), handler);
      return () => {
        ipcRenderer.off(eventChannelOf(event), handler);
      };
    },
    pathForFile: (file) => webUtils.getPathForFile(file),
  }),
);
