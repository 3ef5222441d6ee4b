import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { forgetBenchSmoke, startBenchSmoke } from './bench-smoke';

/**
 * Vitest's global setup: builds the app (renderer, main, preload, verify.html) once for the whole
 * run, before any test file starts, so files running side by side never read a build another is
 * rewriting, and no file pays for a build of its own.
 */
export default function buildOnce(): (() => void) | undefined {
  forgetBenchSmoke();
  // The command line's compiled code (main/config/compile-cache.ts) is kept for this run, not in the
  // cache folder of whoever runs the tests: each build names its chunks anew.
  const compiled = resolve('test-results', 'compile-cache');
  rmSync(compiled, { recursive: true, force: true });
  process.env.EVIDENCE_DESK_CACHE_DIR = compiled;
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  // The benchmarks' smoke run starts now, beside the files, when this run includes its test.
  return runIncludes('test/unit/benchmarks.test.ts') ? startBenchSmoke() : undefined;
}

/** Whether the files this run was asked for include `file` (all of them when none was named). */
function runIncludes(file: string): boolean {
  const named = process.argv.slice(2).filter((arg) => !arg.startsWith('-') && arg !== 'run');
  return named.length === 0 || named.some((filter) => file.includes(filter));
}
