import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

/*
 * On a fresh checkout (CI) Vitest has no timings yet and starts larger files first: a small file that
 * runs long (the npm package's install) then starts late and ends the run alone. These start first,
 * longest first; then Vitest's own order. (The benchmarks' test only waits for the smoke run the
 * global setup started: test/support/bench-smoke.ts.)
 */
const SLOW_FIRST = [
  'test/evidence/timestamps.test.ts',
  'test/evidence/renewal.test.ts',
  'test/core/cli.test.ts',
  'test/evidence/receipts.test.ts',
  'test/evidence/kit.test.ts',
  'test/core/watch.test.ts',
  'test/e2e/evidence.test.ts',
  'test/core/cli-blocked.test.ts',
  'test/core/sync-lease.test.ts',
  'test/foundation/npm-package.test.ts',
  'test/core/crash.test.ts',
];

/**
 * Starts last: it only waits for the smoke run, and started early (Vitest's cached timings rank it by
 * how long it waited last time) it held one of three workers for a minute doing nothing.
 */
const LAST = 'test/unit/benchmarks.test.ts';

const rank = (spec: TestSpecification) => {
  const file = spec.moduleId.replaceAll('\\', '/');
  if (file.endsWith(LAST)) return SLOW_FIRST.length + 1;
  const at = SLOW_FIRST.findIndex((slow) => file.endsWith(slow));
  return at < 0 ? SLOW_FIRST.length : at;
};

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: files outside the list keep Vitest's order among themselves.
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}
