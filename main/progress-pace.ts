/**
 * The pace of progress reports: at most one per `everyMs`, and always the last. Enough for a
 * progress bar, cheap for 100,000 files (a report per file would flood the window's IPC).
 */
export function progressPace(everyMs: number): (last?: boolean) => boolean {
  let lastReport = -Infinity;
  return (last = false) => {
    const now = performance.now();
    if (!last && now - lastReport < everyMs) return false;
    lastReport = now;
    return true;
  };
}
