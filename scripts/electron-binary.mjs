// Where Electron's binary is, or null — found WITHOUT requiring the `electron` package, whose
// index.js downloads the binary synchronously when it is missing (impossible offline).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'electron');

export function electronBinary() {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const override = join(
      process.env.ELECTRON_OVERRIDE_DIST_PATH,
      process.platform === 'win32' ? 'electron.exe' : 'electron',
    );
    return existsSync(override) ? override : null;
  }
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

export const WHY_NO_ELECTRON =
  "Electron's binary is not installed (node_modules/electron/dist is missing; it is downloaded from the internet, which this machine cannot reach). " +
  'Run `node node_modules/electron/install.js` on a machine with internet access.';
