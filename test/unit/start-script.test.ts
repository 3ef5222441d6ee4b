import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types, the same one npm start runs.
import { electronBinary } from '../../scripts/electron-binary.mjs';

// `npm start` on a checkout without Electron's binary: it fetches it with Electron's own
// installer. Here the download cannot work (this machine has no internet, and the test points the
// installer at a mirror that refuses, so it downloads nothing anywhere): it must say so in words,
// without a stack trace, and point to the command line.
// Where the binary is installed, npm start would open the app instead: this is not that machine.
const installed = (electronBinary as () => string | null)();
if (installed) console.log(`start-script.test: skipped, Electron's binary is installed (${installed})`);

describe('npm start without Electrons binary', () => {
  it.skipIf(installed !== null)(
    'tries Electron’s installer, then says why it could not and what works instead',
    () => {
      const run = spawnSync(process.execPath, ['scripts/start.mjs'], {
        encoding: 'utf8',
        env: { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/', ELECTRON_OVERRIDE_DIST_PATH: '' },
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/fetching it with Electron's own installer/);
      expect(run.stderr).toMatch(
        /Electron's installer could not download it \(.+\): this computer cannot reach/,
      );
      expect(run.stderr).toMatch(/npm run cli -- --help/);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    },
  );
});
