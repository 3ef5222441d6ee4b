import type { Worker } from 'node:worker_threads';

// How long closing waits for a worker to confirm it stopped. Under load, a worker terminated while
// busy sometimes never did: the close never returned, the event loop emptied, and a command stopped
// without its result (`verify` refusing a hostile kit, 3 runs in 80 under load). It ends with the
// process all the same.
const STOP_WAITS_AT_MOST_MS = 2_000;

export const stopped = (worker: Worker): Promise<void> =>
  new Promise((resolve) => {
    const bound = setTimeout(resolve, STOP_WAITS_AT_MOST_MS);
    void worker.terminate().finally(() => {
      clearTimeout(bound);
      resolve();
    });
  });
