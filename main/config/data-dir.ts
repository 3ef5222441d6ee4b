import { homedir } from 'node:os';
import { join } from 'node:path';

export const PRODUCT_NAME = 'Evidence Desk';

/**
 * Where Evidence Desk keeps its queue, on every platform the same folder Electron's
 * `userData` points to, so the app and the CLI share one queue. EVIDENCE_DESK_DATA_DIR overrides.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.EVIDENCE_DESK_DATA_DIR) return env.EVIDENCE_DESK_DATA_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', PRODUCT_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), PRODUCT_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), PRODUCT_NAME);
}
