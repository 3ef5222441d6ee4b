import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Sender } from '../../protocol/views';
import type { SyncLeaseStore } from '../store';

export interface LeaseTiming {
  /** How long a lease lasts without renewal: a crashed or frozen sender is replaced after this. */
  ttlMs: number;
  /** How often the holder renews it, between batches and while a batch is on the wire. */
  renewMs: number;
  /** How soon a sender standing by looks at the lease again (5 s unless told). */
  standbyLookMs?: number;
}

export const DEFAULT_LEASE: LeaseTiming = { ttlMs: 30_000, renewMs: 10_000 };

/**
 * One sender per queue. The keeper takes the lease, renews it on a timer for as long as work is on
 * the wire (a batch slower than the lease must not let a second process in), and knows locally
 * whether it still holds it: a renewal older than the lease's lifetime means someone else may
 * have taken over, and nothing more may be sent or written for the rows it had claimed.
 */
export class LeaseKeeper {
  private readonly me;
  private renewedAt: number | undefined;

  constructor(
    private readonly store: SyncLeaseStore,
    private readonly timing: LeaseTiming,
    private readonly now: () => number,
    sender: Sender = 'app',
  ) {
    this.me = { holder: randomUUID(), pid: process.pid, host: hostname(), sender };
  }

  /** Who sends this queue when it is not us: the app or the command line. */
  otherSender(): Sender | null {
    return this.store.sender();
  }

  /** Takes or renews the lease: `acquired` when it was not held a moment ago (resume what was left). */
  hold(): 'held' | 'acquired' | 'refused' {
    const now = this.now();
    if (this.renewedAt !== undefined && now - this.renewedAt < this.timing.renewMs && this.holds())
      return 'held';
    const wasHeld = this.holds();
    if (!this.store.acquire(this.me, now, this.timing.ttlMs, isProcessAlive)) {
      this.renewedAt = undefined;
      return 'refused';
    }
    this.renewedAt = now;
    return wasHeld ? 'held' : 'acquired';
  }

  /**
   * Like `hold`, but a renewal that could not be written (the queue busy past its timeout) is not
   * an error: the lease still counts as held while its last renewal is recent enough.
   */
  tryHold(): 'held' | 'acquired' | 'refused' {
    try {
      return this.hold();
    } catch {
      return this.holds() ? 'held' : 'refused';
    }
  }

  /** True while the last renewal is recent enough that nobody else can have taken the lease. */
  holds(): boolean {
    return this.renewedAt !== undefined && this.now() < this.renewedAt + this.timing.ttlMs;
  }

  /**
   * Runs `work` while renewing the lease on a timer. If a renewal is refused, or comes too late,
   * `onLost` is called once; the work should stop sending at once.
   */
  async keepWhile<T>(work: () => Promise<T>, onLost: () => void): Promise<T> {
    let lost = false;
    const timer = setInterval(() => {
      if (lost) return;
      // Re-acquired after a lapse counts as lost too: another process may have sent these rows meanwhile.
      if (this.tryHold() !== 'held') {
        lost = true;
        onLost();
      }
    }, this.timing.renewMs);
    try {
      return await work();
    } finally {
      clearInterval(timer);
    }
  }

  release(): void {
    if (this.renewedAt !== undefined) this.store.release(this.me.holder);
    this.renewedAt = undefined;
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
