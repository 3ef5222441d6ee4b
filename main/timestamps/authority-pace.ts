/**
 * Each timestamping authority at its own pace, for everything that asks it in this process (batch
 * tokens, a kit's seal, a certificate saved alone): one request at a time, at least its minimum
 * interval apart (Sectigo asks for 15 s), and none before the time it named when it said "too many"
 * (HTTP 429 or 503 with Retry-After). Public authorities block or bill a desk that asks faster.
 */
export class AuthorityPace {
  private readonly authorities = new Map<string, { line: Promise<unknown>; nextAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    /** Where every process on this data folder (the app, a command beside it) keeps each authority's next time. */
    private readonly shared?: SharedPace,
  ) {}

  /** When this authority may next be asked (ms since the epoch). */
  nextAt(url: string): number {
    return this.authorities.get(url)?.nextAt ?? 0;
  }

  /** When this authority's next request may go, as every process here knows it. */
  nextTurnAt(url: string): number {
    return Math.max(this.nextAt(url), this.readShared(url));
  }

  /** The authority asked not to be asked before `at` (its Retry-After). */
  holdUntil(url: string, at: number): void {
    const authority = this.of(url);
    authority.nextAt = Math.max(authority.nextAt, at);
    this.share(url, authority.nextAt);
  }

  /**
   * Runs `ask` as this authority's next request, once the one before has ended and its pace allows.
   * A request that would have to wait past `waitAtMost` does not wait: `tooLong` says until when.
   * One whose `stop` ends before its turn comes is not asked: `stopped`.
   */
  async turn<T>(
    url: string,
    minIntervalMs: number,
    ask: () => Promise<T>,
    { waitAtMost = Infinity, stop }: { waitAtMost?: number; stop?: AbortSignal } = {},
  ): Promise<{ answer: T } | { tooLong: number } | { stopped: true }> {
    // Ended before its turn (an export cancelled, the process closing): not in line, not asked.
    if (stop?.aborted) return { stopped: true };
    const authority = this.of(url);
    const before = authority.line;
    let done!: () => void;
    authority.line = new Promise<void>((resolve) => (done = resolve));
    try {
      await before;
      authority.nextAt = Math.max(authority.nextAt, this.readShared(url));
      const wait = authority.nextAt - this.now();
      if (wait > waitAtMost) return { tooLong: authority.nextAt };
      if (wait > 0) await pause(wait, stop);
      // Ended while it waited: not asked, so not counted against the pace either.
      if (stop?.aborted) return { stopped: true };
      try {
        return { answer: await ask() };
      } finally {
        authority.nextAt = Math.max(authority.nextAt, this.now() + minIntervalMs);
        this.share(url, authority.nextAt);
      }
    } finally {
      done();
    }
  }

  // Pacing across processes is a courtesy on top of this process's own: a busy or closed queue file
  // never fails a request for it.
  private readShared(url: string): number {
    try {
      return this.shared?.read(url) ?? 0;
    } catch {
      return 0;
    }
  }

  private share(url: string, at: number): void {
    try {
      this.shared?.write(url, at);
    } catch {
      // As above: the next request of another process may then come sooner, never this one.
    }
  }

  private of(url: string) {
    let authority = this.authorities.get(url);
    if (!authority) {
      authority = { line: Promise.resolve(), nextAt: 0 };
      this.authorities.set(url, authority);
    }
    return authority;
  }
}

/** Each authority's next time, kept where every process on the data folder reads it. */
export interface SharedPace {
  read(url: string): number;
  write(url: string, at: number): void;
}

/** Waits `ms`, or less when `stop` ends the wait (the process is closing, an export is cancelled). */
function pause(ms: number, stop?: AbortSignal): Promise<void> {
  // A signal already ended never fires 'abort' again: waiting on it would wait the whole time.
  if (stop?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const ended = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      // The process's own signal outlives every request: each wait lets go of it.
      stop?.removeEventListener('abort', ended);
      resolve();
    }, ms);
    stop?.addEventListener('abort', ended, { once: true });
  });
}
