import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

// scripts/node22.sh is sourced before every npm command: it must not make npm complain each time.
// A throwaway HOME keeps this computer's own ~/.npmrc out of the answer.
it('sourcing scripts/node22.sh leaves npm without "Unknown env config" warnings', () => {
  const home = mkdtempSync(join(tmpdir(), 'evidence-home-'));
  try {
    const run = spawnSync(
      'bash',
      ['-c', 'source scripts/node22.sh && npm config get fund && node --version'],
      {
        // The PATH a fresh shell has, without the Node 22 this test runs on, so the script does its work.
        env: { PATH: systemPath(), HOME: home },
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^v2[2-9]\./m);
    expect(run.stderr).not.toMatch(/Unknown (env|user) config/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

const systemPath = () =>
  (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => !dir.includes('.tools/node22'))
    .join(':');
