import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests open real sockets, SQLite files and keychains: separate processes keep them apart.
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
