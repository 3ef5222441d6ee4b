import type { LocalState, StateCounts } from '../../protocol/states';
import type { QueueChanges } from '../../protocol/views';
import type { QueueDb } from './database';

export type ChangeListener = (changes: QueueChanges) => void;

/** How often another process's commits are looked for, while anyone listens. */
const EXTERNAL_WATCH_MS = 250;
// Under a sustained burst (a 100,000-file drop writes every 20 ms), at most one announcement —
// and one count query — per this interval; a lone write is still announced on the next tick.
const MIN_GAP_MS = 50;
// Counting a queue of a million rows takes about 40 ms: the gap grows with what counting costs,
// so that during a burst counting takes at most a tenth of the thread the window is served from.
const GAP_PER_COUNTING_MS = 10;

/**
 * The one change stream. The store's writers note what they did; once per tick the feed
 * announces it as one batch with the active profile's new counts, so a burst of 1,000 rows costs
 * one count query, not 1,000. Commits by other processes on the same file are noticed through
 * `PRAGMA data_version`, which changes only when another connection commits.
 */
export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  private changed = new Map<number, LocalState>();
  private removed = new Set<number>();
  private profileSwitched = false;
  private external = false;
  private scheduled: { cancel(): void } | undefined;
  private lastFlush = 0;
  private gapMs = MIN_GAP_MS;
  private watcher: NodeJS.Timeout | undefined;
  private dataVersion: number;

  constructor(
    private readonly db: QueueDb,
    private readonly snapshot: () => { profileId: string; counts: StateCounts },
  ) {
    this.dataVersion = this.readDataVersion();
  }

  /** Hears every batch of changes from now on; returns the way to stop. */
  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    this.watchOtherProcesses();
    return () => this.listeners.delete(listener);
  }

  noteChanged(id: number, state: LocalState): void {
    this.changed.set(id, state);
    this.schedule();
  }

  noteRemoved(id: number): void {
    this.changed.delete(id);
    this.removed.add(id);
    this.schedule();
  }

  noteProfileSwitched(): void {
    this.profileSwitched = true;
    this.schedule();
  }

  close(): void {
    this.scheduled?.cancel();
    clearInterval(this.watcher);
    this.listeners.clear();
  }

  private schedule(): void {
    if (this.scheduled) return;
    const wait = this.lastFlush + this.gapMs - performance.now();
    const flush = () => this.flush();
    if (wait > 0) {
      const timer = setTimeout(flush, wait);
      this.scheduled = { cancel: () => clearTimeout(timer) };
    } else {
      const immediate = setImmediate(flush);
      this.scheduled = { cancel: () => clearImmediate(immediate) };
    }
  }

  private flush(): void {
    this.scheduled = undefined;
    this.lastFlush = performance.now();
    const changes = {
      changed: [...this.changed].map(([id, state]) => ({ id, state })),
      removed: [...this.removed],
      profileSwitched: this.profileSwitched,
      external: this.external,
    };
    this.changed = new Map();
    this.removed = new Set();
    this.profileSwitched = false;
    this.external = false;
    if (this.listeners.size === 0 || !this.db.open) return;
    const snapshot = this.snapshot();
    this.gapMs = Math.max(MIN_GAP_MS, GAP_PER_COUNTING_MS * (performance.now() - this.lastFlush));
    const batch: QueueChanges = { ...snapshot, ...changes };
    for (const listener of [...this.listeners]) listener(batch);
  }

  private watchOtherProcesses(): void {
    if (this.watcher) return;
    this.watcher = setInterval(() => {
      if (!this.db.open) return;
      const version = this.readDataVersion();
      if (version === this.dataVersion) return;
      this.dataVersion = version;
      this.external = true;
      this.schedule();
    }, EXTERNAL_WATCH_MS);
    // Watching never keeps a process alive by itself; whoever waits holds its own timer.
    this.watcher.unref();
  }

  private readDataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }
}
