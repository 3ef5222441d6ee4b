import { execFileSync } from 'node:child_process';

/**
 * Vitest's global setup: builds the app (renderer, main, preload, verify.html) once for the whole
 * run, before any test file starts, so files running side by side never read a build another is
 * rewriting, and no file pays for a build of its own.
 */
export default function buildOnce(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
