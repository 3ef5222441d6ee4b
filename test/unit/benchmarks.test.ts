import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

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
];

describe('npm run bench', () => {
  it('runs every benchmark to the end at a tiny size, each printing its figures', () => {
    // At a low priority: the other test files run beside it, some of them timed by what a person sees.
    // It gets the processor when they wait, so under a full run it takes minutes, not one. Each load
    // lasts a second: at 0.3 s a starved reference load measured nothing (0 req/s, an infinite ratio).
    const run = spawnSync('nice', ['-n', '15', process.execPath, '--import', 'tsx', 'bench/run.ts'], {
      encoding: 'utf8',
      env: { ...process.env, BENCH_SCALE: '0.002', BENCH_SECONDS: '1' },
      // Starved while the other files run, it once took 220 s of a 530 s run: room to spare.
      timeout: 420_000,
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    const sections = run.stdout.split(/^— /m).slice(1);
    expect(sections.map((section) => section.split('\n')[0])).toEqual(BENCHMARKS);
    for (const section of sections) expect(section).toMatch(/: \d+\.\d{3} × /);
    expect(run.stdout).not.toMatch(/INVALID/);
  }, 430_000);
});
