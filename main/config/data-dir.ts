import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

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
  if (platform === 'win32')
    return join(
      folderOr(env.APPDATA, () => join(homedir(), 'AppData', 'Roaming')),
      PRODUCT_NAME,
    );
  return join(
    folderOr(env.XDG_CONFIG_HOME, () => join(homedir(), '.config')),
    PRODUCT_NAME,
  );
}

/**
 * A base folder the system names in a variable (XDG_CONFIG_HOME, APPDATA, …), or the usual one when
 * the variable is unset, empty or relative, as the XDG specification says: taken as it is, it would
 * put the folder inside whatever folder a command runs in.
 */
export function folderOr(variable: string | undefined, usual: () => string): string {
  return variable && isAbsolute(variable) ? variable : usual();
}
