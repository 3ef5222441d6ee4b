// The static checks `npm test` runs before the tests: the type check, ESLint and Prettier, side by
// side (each waits on a different thing; one after another they took twice as long). Each one's
// output is printed whole once it ends; any that fails fails the run.
import { spawn } from 'node:child_process';

const CHECKS = {
  typecheck: ['tsc', '--noEmit', '-p', 'tsconfig.json'],
  eslint: ['eslint', '.'],
  prettier: ['prettier', '--check', '--log-level', 'warn', '.'],
};

const run = ([name, [command, ...args]]) =>
  new Promise((resolve) => {
    const child = spawn(`node_modules/.bin/${command}`, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('close', (code) => {
      process.stdout.write(`${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`}\n${output}`);
      resolve(code === 0);
    });
  });

const results = await Promise.all(Object.entries(CHECKS).map(run));
if (results.includes(false)) process.exit(1);
