import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Trust } from '../../verifier/verify-receipt';
import { DeskError } from '../errors';
import { said } from '../../protocol/said';

/**
 * verify.html as built (scripts/build-verifier.mjs): beside the bundled main in the app, or in dist/
 * of a source checkout, where it is built on first need (after `npm ci` nothing has built it yet,
 * whichever entry runs: `npm run cli` or the package's own `evidence-desk`).
 */
export function verifierPage(): string {
  // This module may sit in main/evidence/ (from source), dist/main/ or dist/main/chunks/ (bundled):
  // the page is dist/verify.html of the installation or checkout above it.
  const here = dirname(fileURLToPath(import.meta.url));
  const above = [1, 2, 3].map((levels) => join(here, ...Array<string>(levels).fill('..')));
  const candidates = above.flatMap((dir) => [join(dir, 'verify.html'), join(dir, 'dist', 'verify.html')]);
  const checkout = above.find((dir) => existsSync(join(dir, 'scripts', 'build-verifier.mjs')));
  const builder = checkout && join(checkout, 'scripts', 'build-verifier.mjs');
  if (!candidates.some((path) => existsSync(path)) && builder)
    execFileSync(process.execPath, [builder], { cwd: checkout, stdio: 'ignore' });
  const found = candidates.find((path) => existsSync(path));
  if (found) return readFileSync(found, 'utf8');
  throw new DeskError(
    'verifier_missing',
    said(builder ? 'exports.verifierNotBuilt' : 'exports.verifierMissing'),
  );
}

/** verify.html with what the kit says of itself: the keys it offers (never trusted unasked), and DEMO. */
export function kitSays(page: string, says: Trust & { demo: boolean }): string {
  return page.replace('%TRUSTED_KEYS%', () => JSON.stringify(says));
}
