import { session, shell } from 'electron';
import type { BrowserWindow } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../../protocol/content-security-policy';

/** The renderer may show our page and nothing else: no navigation, no new windows, no permissions. */
export function lockDown(window: BrowserWindow): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.on('will-redirect', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    // Links to documentation open in the user's browser, never inside the app.
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  spellcheck: false,
} as const;
