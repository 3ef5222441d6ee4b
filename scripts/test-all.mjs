// `npm test`'s work: the static checks (scripts/checks.mjs) and the tests (Vitest) side by side.
// The tests leave a sixth of two cores idle while they wait on sockets, timers and Chromium; the
// checks, at a low priority, use it instead of running alone first (half a minute of a CI run).
// Vitest's output streams as it comes; the checks' is printed whole once they end. Either failing fails.
import { spawn } from 'node:child_process';

const started = (command, args, options) =>
  new Promise((resolve) => {
    const child = spawn(command, args, options);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.once('close', (code) => resolve({ code, output }));
  });

// Printed as soon as they end (well before the tests do), so the tests' summary stays the last line.
const checks = started('nice', ['-n', '10', process.execPath, 'scripts/checks.mjs'], {
  stdio: ['ignore', 'pipe', 'pipe'],
}).then((checked) => {
  process.stdout.write(checked.output);
  return checked;
});
const tests = started('node_modules/.bin/vitest', ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
const [checked, tested] = await Promise.all([checks, tests]);
if (checked.code !== 0) process.stdout.write('The static checks failed: their output is above.\n');
process.exit(checked.code !== 0 || tested.code !== 0 ? 1 : 0);
