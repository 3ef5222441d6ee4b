import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// The benchmarks' own build: the command line and their child processes (scripts/build-cli.mjs
// --bench), never the dist/main the tests run.
const BUILT = 'dist/bench';
let built = false;

export type BenchScript =
  'cli' | 'million-step' | 'export-child' | 'verify-set-child' | 'serve-sandbox' | 'serve-empty';

/** The bundled script of a benchmark's child process (or the command line), built once per run. */
export function benchScript(name: BenchScript): string {
  if (!built) {
    execFileSync(process.execPath, ['scripts/build-cli.mjs', '--outdir', BUILT, '--bench']);
    built = true;
  }
  return join(process.cwd(), BUILT, `${name}.js`);
}
