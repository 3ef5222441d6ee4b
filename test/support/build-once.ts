import { execFileSync } from 'node:child_process';
import { forgetBenchSmoke, startBenchSmoke } from './bench-smoke';

/**
 * Vitest's global setup: builds the app (renderer, main, preload, verify.html) once for the whole
 * run, before any test file starts, so files running side by side never read a build another is
 * rewriting, and no file pays for a build of its own.
 */
export default function buildOnce(): (() => void) | undefined {
  forgetBenchSmoke();
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  // The benchmarks' smoke run starts now, beside the files, when this run includes its test.
  return runIncludes('test/unit/benchmarks.test.ts') ? startBenchSmoke() : undefined;
}

/** Whether the files this run was asked for include `file` (all of them when none was named). */
function runIncludes(file: string): boolean {
  const named = process.argv.slice(2).filter((arg) => !arg.startsWith('-') && arg !== 'run');
  return named.length === 0 || named.some((filter) => file.includes(filter));
}
