import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A worker thread's script beside the module that starts it: `.ts` when run from source, `.js`
 * once bundled, where the bundle may put that module in a chunks/ folder below the workers.
 */
export function workerBeside(moduleUrl: string, name: string): URL {
  const above = moduleUrl.includes('/chunks/') ? '../' : './';
  return new URL(`${above}${name}${extname(fileURLToPath(moduleUrl))}`, moduleUrl);
}
