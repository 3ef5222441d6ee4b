// `npm start`: build, then open the app (on the embedded sandbox unless a profile is chosen). When
// Electron's binary is missing (a fresh checkout), it is fetched first with Electron's own
// installer, with progress; where that cannot work (no internet), it says so and points to the
// command line.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WHY_NO_ELECTRON, electronBinary } from './electron-binary.mjs';

const CLI_HINT =
  'Without a display or Electron, the same core runs from the command line: npm run cli -- --help\n';

let binary = electronBinary();
if (!binary && !process.env.ELECTRON_OVERRIDE_DIST_PATH) {
  process.stderr.write(
    "Electron's binary is not installed yet: fetching it with Electron's own installer (about 100 MB)…\n",
  );
  const failure = await fetchElectron();
  binary = electronBinary();
  if (!binary) {
    process.stderr.write(
      `Electron's installer could not download it (${failure ?? 'it finished without the binary'}): ` +
        'this computer cannot reach the internet, or GitHub where Electron is published (a proxy: set HTTPS_PROXY; ' +
        `a mirror: ELECTRON_MIRROR). Run npm start again where it can.\n${CLI_HINT}`,
    );
    process.exit(1);
  }
}
if (!binary) {
  process.stderr.write(`${WHY_NO_ELECTRON}\n${CLI_HINT}`);
  process.exit(1);
}
await import('./build.mjs');
const child = spawn(binary, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));

/**
 * Runs node_modules/electron/install.js, saying every few seconds how much has arrived; resolves
 * with the installer's own first line of complaint when it fails (its stack trace is not for people).
 */
function fetchElectron() {
  return new Promise((resolve) => {
    const started = Date.now();
    const installer = spawn(process.execPath, ['node_modules/electron/install.js'], {
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let complaint = '';
    installer.stderr.on('data', (chunk) => (complaint += chunk));
    const progress = setInterval(() => {
      const mib = (downloadedBytes() / 1024 / 1024).toFixed(0);
      process.stderr.write(`  … ${Math.round((Date.now() - started) / 1000)} s, ${mib} MiB so far\n`);
    }, 3_000);
    installer.on('exit', (code) => {
      clearInterval(progress);
      const firstLine = complaint.split('\n').find((line) => line.trim() && !/^\s+at /.test(line));
      resolve(code === 0 ? null : (firstLine?.trim() ?? `exit code ${code}`));
    });
  });
}

/** What Electron's downloader has written so far: it downloads into electron-download-* in the temp folder. */
function downloadedBytes() {
  let total = 0;
  try {
    for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith('electron-download-'))) {
      const folder = join(tmpdir(), name);
      for (const file of readdirSync(folder)) total += statSync(join(folder, file)).size;
    }
  } catch {
    // A download folder that went away between listing and reading: it finished.
  }
  return total;
}
