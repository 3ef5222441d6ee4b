import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// The benchmarks' own build: the command line and their child processes (scripts/build-cli.mjs
// --bench), in a folder of this run's own (never the dist/main the tests run, nor another run's:
// a build first removes its folder's chunks, which children load as they go), removed at exit.
let built: string | undefined;

export type BenchScript =
  'cli' | 'million-step' | 'export-child' | 'verify-set-child' | 'serve-sandbox' | 'serve-empty';

/** The bundled script of a benchmark's child process (or the command line), built once per run. */
export function benchScript(name: BenchScript): string {
  if (!built) {
    // Inside the project: the bundles find their packages in node_modules above them.
    mkdirSync('dist', { recursive: true });
    const dir = mkdtempSync(join(process.cwd(), 'dist', 'bench-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    execFileSync(process.execPath, ['scripts/build-cli.mjs', '--outdir', dir, '--bench']);
    // The command line's compiled code is kept with this build, and goes with it.
    process.env.EVIDENCE_DESK_CACHE_DIR = join(dir, 'compile-cache');
    built = dir;
  }
  return join(built, `${name}.js`);
}
