import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchFigure } from './figure';
import { bestOfPairs, timeCommand } from './support/timing';
import { sized } from './size';
import { benchScript } from './support/bench-scripts';

// The start the issue asked for: `evidence-desk status` in a quarter of a second.
const BUDGET_MS = 250;

/**
 * The built command line's start: `evidence-desk status` (open the queue and the keychain, print
 * the counts) against `node -e 0`, the floor any Node program pays, best of 5 alternating pairs.
 */
export async function cliStart(): Promise<BenchFigure[]> {
  const built = benchScript('cli');
  const dataDir = mkdtempSync(join(tmpdir(), 'evidence-bench-cli-'));
  try {
    const status = `'${process.execPath}' '${built}' status --data-dir '${dataDir}' > /dev/null`;
    // The first run makes the queue file; every later one opens it, as on a computer in use.
    await timeCommand(status);
    const best = await bestOfPairs(
      sized(5),
      () => timeCommand(status),
      () => timeCommand(`'${process.execPath}' -e 0`),
    );
    const figure = (reference: number, referenceName: string, target?: BenchFigure['target']) => ({
      name: 'CLI start: evidence-desk status (the built bundle)',
      value: best.measured,
      reference,
      unit: 'ms',
      referenceName,
      failures: 0,
      ...(target ? { target } : {}),
    });
    return [figure(best.reference, 'node -e 0'), figure(BUDGET_MS, 'the 0.25 s budget', { atMost: 1 })];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
