import { describe, expect, it } from 'vitest';
import { benchSmokeResult } from '../support/bench-smoke';

// Every benchmark, run once at a five-hundredth of its size (each has a floor it never goes under): a change that breaks one fails here, not
// weeks later in a run of the real figures. Targets are not judged at this size; that each runs
// to the end and prints its figures is.
const BENCHMARKS = [
  'sandbox-create',
  'hash-large-file',
  'hash-small-files',
  'drain',
  'certify-wait',
  'intake-with-listeners',
  'hostile-load',
  'export',
  'verify-set',
  'watch',
  'cli-start',
  'renew-records',
  'production',
  // Run on their own at full size (`npm run bench -- million desk`); at the smoke run's size, with the rest.
  'desk',
  'million',
];

describe('npm run bench', () => {
  it('runs every benchmark to the end at a tiny size, each printing its figures', async () => {
    // Started by the global setup beside the other files (test/support/bench-smoke.ts). Starved while
    // they run, it once took 220 s of a 530 s run: room to spare.
    const run = await benchSmokeResult(420_000);
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    const sections = run.stdout.split(/^— /m).slice(1);
    expect(sections.map((section) => section.split('\n')[0])).toEqual(BENCHMARKS);
    for (const section of sections) expect(section).toMatch(/: \d+\.\d{3} × /);
    expect(run.stdout).not.toMatch(/INVALID/);
  }, 430_000);
});
