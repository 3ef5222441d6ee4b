import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests open real sockets, SQLite files and keychains: separate processes keep them apart.
    pool: 'forks',
    // A worker runs file after file without starting again (71 starts of ~0.6 s each saved). Each
    // file still opens its own core, data folder, sandbox and pages, and closes them after.
    isolate: false,
    // Vitest's default on two cores is one worker; most files wait on sockets, timers and Chromium
    // rather than on the processor, so three run side by side in well under half the time (four were
    // faster here, but a fresh checkout then timed out a sandbox's exit and a provisioning).
    maxWorkers: 3,
    // Files known to run long start first, also on a fresh checkout with no timings cached (CI).
    sequence: { sequencer: SlowFirstSequencer },
    // The app is built once for the whole run (test/support/build-once.ts).
    globalSetup: ['./test/support/build-once.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // What the screens show while work runs (a kit being saved) can take seconds on a loaded
    // machine: polls wait up to 10 s for what a person would see, not Vitest's 1 s.
    expect: { poll: { timeout: 10_000 } },
  },
});
