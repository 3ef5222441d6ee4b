// The static checks `npm test` runs before the tests: the type check, ESLint and Prettier, side by
// side (each waits on a different thing; one after another they took twice as long). Each one's
// output is printed whole once it ends; any that fails fails the run.
import { spawn } from 'node:child_process';

// The type check runs on TypeScript 7's native compiler (4 s here, 22 s for TypeScript 6's, with
// the same errors): the package typescript-native is typescript@7 under another name, as ESLint's
// parser still reads TypeScript through TypeScript 6's JavaScript API.
const CHECKS = {
  typecheck: ['node_modules/typescript-native/bin/tsc', '--noEmit', '-p', 'tsconfig.json'],
  eslint: ['node_modules/eslint/bin/eslint.js', '.'],
  prettier: ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '.'],
};

const run = ([name, [command, ...args]]) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
