import type { Logger } from '../logging/logger';
import type { NameIndex } from '../store';

/**
 * Keeps the names' search index caught up (NameIndex), a thousand rows at a time with the event
 * loop free between them: woken when rows are queued, done when none are left.
 */
export function keepNamesIndexed(index: NameIndex, log: Logger): { soon(): void; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const later = (ms: number) => {
    timer = setTimeout(step, ms);
    // Never what keeps a command-line process alive: what is left is indexed by the next one.
    timer.unref();
  };
  const step = () => {
    timer = undefined;
    if (stopped) return;
    try {
      if (index.catchUp()) later(0);
    } catch (error) {
      // Another process holding the queue: searches read the rows not indexed yet meanwhile.
      log.log('warn', 'names.index_failed', { error: (error as Error).message });
      later(5000);
    }
  };
  return {
    soon: () => {
      if (!timer && !stopped) later(100);
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
