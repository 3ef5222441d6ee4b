/**
 * The renderer is served from a privileged custom scheme, `app://evidence-desk/`, never from
 * file:// (which would give the page the whole disk as its origin). Decided here without
 * Electron so it is tested under Node; main/electron/security.ts registers and serves it.
 */
import { extname, join, normalize, sep } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'evidence-desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * The file under `root` an app:// address names, or null for anything else: another host, a path
 * that climbs out of the renderer folder (also when percent-encoded), a query-smuggled path.
 */
export function rendererFileFor(root: string, address: string): { file: string; type: string } | null {
  if (!URL.canParse(address)) return null;
  const url = new URL(address);
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  const base = normalize(root);
  const file = normalize(join(base, path === '/' ? 'index.html' : path));
  if (!file.startsWith(base.endsWith(sep) ? base : base + sep)) return null;
  return { file, type: TYPES[extname(file)] ?? 'application/octet-stream' };
}

/** Only the app's own page, in its main frame, may call into main. */
export const isAppPage = (frameUrl: string | undefined): boolean =>
  frameUrl !== undefined && frameUrl.startsWith(`${APP_ORIGIN}/`);

/** The only addresses the app opens in the user's browser: its own documentation. */
export const DOCUMENTATION_ADDRESSES = ['https://github.com/evidence-desk/evidence-desk#readme'] as const;

export function isDocumentationAddress(address: string): boolean {
  if (!URL.canParse(address)) return false;
  const url = new URL(address);
  return DOCUMENTATION_ADDRESSES.some((allowed) => {
    const documentation = new URL(allowed);
    return (
      url.protocol === 'https:' && url.host === documentation.host && url.pathname === documentation.pathname
    );
  });
}
