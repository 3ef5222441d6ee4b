import { spawn } from 'node:child_process';

/** Wall time of an async action, in milliseconds. */
export async function timeIt(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

/** Wall time of a command (through a shell, output discarded); fails loudly if it fails. */
export function timeCommand(command: string): Promise<number> {
  return timeIt(
    () =>
      new Promise<void>((resolve, reject) => {
        const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'ignore', 'inherit'] });
        child.once('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`)),
        );
      }),
  );
}

/** The best of several alternating runs of a pair: the least disturbed figure for each. */
export async function bestOfPairs(
  runs: number,
  measured: () => Promise<number>,
  reference: () => Promise<number>,
): Promise<{ measured: number; reference: number }> {
  let best = { measured: Infinity, reference: Infinity };
  for (let i = 0; i < runs; i++) {
    best = {
      reference: Math.min(best.reference, await reference()),
      measured: Math.min(best.measured, await measured()),
    };
  }
  return best;
}
