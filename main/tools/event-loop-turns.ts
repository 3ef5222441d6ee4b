import { setImmediate as nextTurn } from 'node:timers/promises';

// Drawing a kit's PDFs keeps the main thread busy for minutes, and a process whose event loop never
// turns answers no window, IPC, progress or timer in that time (on Windows, its window greys out as
// "not responding"). Between two items, the event loop gets a turn every so often.
const HOLD_AT_MOST_MS = 25;

/**
 * For a long loop on the main thread: `await takeTurn()` between items gives the event loop a turn
 * once the loop has held it for 25 ms (or as asked), and costs next to nothing otherwise.
 */
export function turnTaker(holdAtMostMs = HOLD_AT_MOST_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < holdAtMostMs) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}

// A reference (a register, a load file of a production) is read while workers list and hash the
// set: a turn every few milliseconds hands them the files found, and keeps progress live.
const READER_HOLDS_AT_MOST_MS = 4;

/** turnTaker for reading a reference: 100,000 lines held the thread for most of a second. */
export const readerTurns = () => turnTaker(READER_HOLDS_AT_MOST_MS);
