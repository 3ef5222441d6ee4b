import { readFile } from 'node:fs/promises';
import { app, protocol, session, shell } from 'electron';
import type { WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../../protocol/content-security-policy';
import { APP_SCHEME, isDocumentationAddress, rendererFileFor } from '../desktop-policy/app-scheme';

/**
 * Before the app is ready: app:// is a standard, secure scheme (its own origin, like https), so
 * the renderer never needs file://.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: false } },
  ]);
}

/** Serves the built renderer, and nothing outside its folder, under the one Content-Security-Policy. */
export function serveRenderer(rendererRoot: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const served = rendererFileFor(rendererRoot, request.url);
    if (!served) return new Response('Not found', { status: 404 });
    try {
      return new Response(await readFile(served.file), {
        headers: { 'content-type': served.type, 'content-security-policy': CONTENT_SECURITY_POLICY },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}

/**
 * For every web contents the app will ever have, not just the window: no webviews, no
 * navigation or redirects, no new windows (the documentation, and only it, opens in the
 * browser), no permissions, and no DevTools in a packaged build.
 */
export function guardAllWebContents(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_event, contents) => guard(contents));
}

function guard(contents: WebContents): void {
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isDocumentationAddress(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  if (app.isPackaged) contents.on('devtools-opened', () => contents.closeDevTools());
}

export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
} as const;
