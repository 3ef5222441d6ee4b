import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import type { WatchStatus, WatchedFolderView } from '../../protocol/views';
import type { HashPool } from '../hashing/hash-pool';
import type { Logger } from '../logging/logger';
import type { WatchedFolderStore } from '../store';
import { changedSince } from './catch-up';
import type { Listed } from './catch-up';
import { ignoredBy } from './ignore-rules';
import type { Look } from '../store';
import { StabilityGate } from './stability-gate';
import type { WatchTiming } from './watch-timing';
import type { SubscribeToChanges, Subscription } from './change-events';
import { folderProblem } from './folder-problem';

export type { WatchTiming };

/** A file that held still: where it is, what it looked like, and its content's SHA-256. */
export interface ReadyFile {
  /** Relative to the folder, '/' between folders. */
  path: string;
  absolute: string;
  look: Look;
  hash: string;
}

export interface FolderWatcherDeps {
  store: WatchedFolderStore;
  pool: HashPool;
  log: Logger;
  timing: WatchTiming;
  /** Whether a folder is polled rather than told of changes (its method, or where it lives). */
  polled(folder: WatchedFolderView): boolean;
  /** Files hashed and ready: recorded (and certified when new) by the watched-folders service. */
  arrive(folder: WatchedFolderView, files: ReadyFile[]): void;
  /** The folder's status changed (for the list, the tray and notifications). */
  onStatus(): void;
  /** The system's change events for a folder; @parcel/watcher's unless given. */
  subscribe?: SubscribeToChanges;
}

// A file that cannot be read (locked by Word, held by an antivirus) is tried this many times, a
// settling time apart, then left until it changes again.
const MAX_FAILURES = 3;
// Files are hashed in groups this large: a copy of 2,000 files is 8 rounds, each one transaction.
const ARRIVAL_GROUP = 256;

/**
 * Watches one folder: change events where the system delivers them (@parcel/watcher: inotify,
 * FSEvents, ReadDirectoryChangesW), a listing every few seconds on a network share. A changed
 * file waits in the stability gate until it holds still, is hashed, and goes to `arrive`. The
 * folder itself is checked on every health tick: one that disappears, loses permission or is
 * replaced is reported, retried, and caught up on when it is back.
 */
export class FolderWatcher {
  private readonly gate: StabilityGate;
  private ignored: (relativePath: string) => boolean;
  private subscription: Subscription | null = null;
  private identity: string | null = null;
  private lookTimer: NodeJS.Timeout | undefined;
  private lastPoll = 0;
  private heardAt = 0;
  private stopped = false;
  private busy: Promise<void> = Promise.resolve();
  private readonly failures = new Map<string, number>();
  private hashing = 0;

  constructor(
    private folder: WatchedFolderView,
    private readonly deps: FolderWatcherDeps,
  ) {
    this.gate = new StabilityGate(folder.settleMs);
    this.ignored = ignoredBy(folder);
  }

  get id(): number {
    return this.folder.id;
  }

  /** Files waiting to hold still or being hashed: nothing is lost by stopping, a restart catches up. */
  get waiting(): number {
    return this.gate.size + this.hashing;
  }

  start(): Promise<void> {
    this.lookTimer = setInterval(() => this.look(), this.deps.timing.lookMs);
    return this.health();
  }

  /** The choices changed: applied from the next look; files a new glob or subfolders take in are caught up on. */
  update(folder: WatchedFolderView): void {
    const scope = (of: WatchedFolderView) => `${of.include}|${of.subfolders}|${of.method}`;
    if (scope(folder) !== scope(this.folder)) this.identity = null;
    this.folder = folder;
    this.ignored = ignoredBy(folder);
    this.gate.settleMs = folder.settleMs;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.lookTimer);
    await this.busy.catch(() => undefined);
    await this.unsubscribe();
  }

  /** Checks the folder; (re)starts watching it and catches up when it is back or new. */
  health(): Promise<void> {
    // One check at a time: a slow catch-up on a share is not started twice.
    this.busy = this.busy
      .then(() => this.checkHealth())
      .catch((error: unknown) =>
        this.deps.log.log('warn', 'watch.health_failed', {
          folder: this.folder.id,
          error: (error as Error).message,
        }),
      );
    return this.busy;
  }

  private async checkHealth(): Promise<void> {
    if (this.stopped) return;
    const problem = await folderProblem(this.folder.path);
    if (problem) {
      await this.unsubscribe();
      this.identity = null;
      this.status('unavailable', problem.said);
      return;
    }
    const polled = this.deps.polled(this.folder);
    // The same folder while its inode is: one deleted and made again is new, and listed again.
    const identity = `${(await stat(this.folder.path)).ino}:${polled}`;
    const pollDue = polled && Date.now() - this.lastPoll >= this.folder.pollSeconds * 1000;
    // The system can lose a change event, and says nothing of it: @parcel/watcher 2.6.0 skips
    // inotify's queue overflows, and loses an event that comes between reading and clearing its
    // list (one file in a burst of 20, one run in five here). Lost events come among others: once
    // events were heard since the folder was last listed, it is listed again, at most every
    // relistMs, so such a file waits that long, not until the next start. Listing again certifies
    // nothing twice: the gate and the folder's table hold what is already on its way or seen.
    const relistDue =
      !polled && this.heardAt >= this.lastPoll && Date.now() - this.lastPoll >= this.deps.timing.relistMs;
    const fresh = identity !== this.identity;
    if (!fresh && !pollDue && !relistDue) return;
    // New, back, replaced by another folder of the same name, or due for its poll: said while it
    // takes. A listing again says nothing (a file's problem shown on the folder stays).
    if (fresh) {
      await this.unsubscribe();
      if (!polled) await this.subscribe();
      this.identity = identity;
    }
    const announced = fresh || pollDue;
    if (announced) this.status('catching_up', null);
    // From when the listing began: an event heard while it ran may be of a file it did not see.
    const listedFrom = Date.now();
    await this.catchUp();
    this.lastPoll = listedFrom;
    if (announced && !this.stopped) this.status('watching', null);
  }

  private async subscribe(): Promise<void> {
    const subscribe = this.deps.subscribe ?? (await import('@parcel/watcher')).subscribe;
    this.subscription = await subscribe(this.folder.path, (error, events) => {
      if (error) {
        // The system stopped telling us (the folder went, a drive was pulled): the health check
        // says so and starts again.
        this.identity = null;
        void this.health();
        return;
      }
      this.heardAt = Date.now();
      for (const event of events) void this.heard(event.path, event.type === 'delete');
    });
  }

  private async unsubscribe(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.unsubscribe().catch(() => undefined);
  }

  /** A change event: a file to look at, a folder moved in to list, or something gone. */
  private async heard(absolute: string, deleted: boolean): Promise<void> {
    const path = this.relativeOf(absolute);
    if (path === null) return;
    if (deleted) {
      this.gate.forget(path);
      return;
    }
    let info: Stats;
    try {
      info = await stat(absolute);
    } catch {
      this.gate.forget(path);
      return;
    }
    // A folder moved in brings its files without an event for each: list it.
    if (info.isDirectory()) await this.catchUp(absolute);
    else if (info.isFile() && !this.ignored(path)) this.gate.observe(path, lookOf(info), Date.now());
  }

  /**
   * Lists the folder (or one of its subfolders) in a hashing worker and compares it with what
   * was seen: new and changed files go to the gate, files no longer there are forgotten.
   */
  private async catchUp(under = this.folder.path): Promise<void> {
    const listed: Listed[] = [];
    const { problems } = await this.deps.pool.expand([under], (files) => {
      for (const file of files) {
        const path = this.relativeOf(file.path);
        if (path !== null && !this.ignored(path))
          listed.push({ path, size: file.size, mtimeMs: file.mtimeMs });
      }
    });
    if (problems.length)
      this.deps.log.log('warn', 'watch.listing_problems', {
        folder: this.folder.id,
        problems: problems.slice(0, 5).map((problem) => problem.code),
      });
    const seen = this.deps.store.seen(this.folder.id);
    const prefix = under === this.folder.path ? '' : `${this.relativeOf(under)}/`;
    const seenHere = prefix ? new Map([...seen].filter(([path]) => path.startsWith(prefix))) : seen;
    const { changed, gone } = changedSince(listed, seenHere);
    const now = Date.now();
    for (const file of changed) this.gate.observe(file.path, file, now);
    if (gone.length && !problems.some((problem) => problem.path === under))
      this.deps.store.forget(this.folder.id, gone);
  }

  /** Looks again at the files waiting; those that held still are hashed and handed on. */
  private look(): void {
    if (this.stopped) return;
    const now = Date.now();
    void Promise.all(
      this.gate.paths.map(async (path) => {
        try {
          this.gate.observe(path, lookOf(await stat(join(this.folder.path, path))), now);
        } catch {
          this.gate.observe(path, null, now);
        }
      }),
    ).then(() => {
      const ready = this.gate.takeReady(Date.now());
      for (let start = 0; start < ready.length; start += ARRIVAL_GROUP)
        void this.hashAndHandOn(ready.slice(start, start + ARRIVAL_GROUP));
    });
  }

  private async hashAndHandOn(files: { path: string; look: Look }[]): Promise<void> {
    this.hashing += files.length;
    const ready: ReadyFile[] = [];
    await Promise.all(
      files.map(async ({ path, look }) => {
        const seen = this.deps.store.seenOne(this.folder.id, path);
        // Touched but not changed (the same size and time as when it was certified): nothing to do.
        if (seen && seen.size === look.size && seen.mtimeMs === look.mtimeMs) return;
        const absolute = join(this.folder.path, path);
        const outcome = await this.deps.pool.hash(absolute, undefined, look.size);
        if (outcome.ok && outcome.size === look.size && outcome.mtimeMs === look.mtimeMs) {
          this.failures.delete(path);
          ready.push({ path, absolute, look, hash: outcome.hash });
        } else if (outcome.ok || outcome.code === 'changed_while_hashing') {
          // Written to again while it was read: wait until it holds still once more.
          this.gate.observe(path, { size: -1, mtimeMs: -1 }, Date.now());
        } else if (outcome.code !== 'not_found') this.failed(path, outcome.said);
      }),
    );
    this.hashing -= files.length;
    if (ready.length && !this.stopped) this.deps.arrive(this.folder, ready);
  }

  /** A file that could not be read: tried again later, and said on the folder. */
  private failed(path: string, why: Said): void {
    const failures = (this.failures.get(path) ?? 0) + 1;
    this.failures.set(path, failures);
    if (failures < MAX_FAILURES) this.gate.observe(path, { size: -1, mtimeMs: -1 }, Date.now());
    this.deps.log.log('warn', 'watch.file_failed', { folder: this.folder.id, failures });
    this.status('watching', said('watch.fileFailed', { name: path, why }));
  }

  private status(status: WatchStatus, problem: Said | null): void {
    if (this.stopped) return;
    if (this.deps.store.setStatus(this.folder.id, status, problem, this.deps.polled(this.folder)))
      this.deps.onStatus();
  }

  /** A path inside the folder, relative and with '/'; null outside it. */
  private relativeOf(absolute: string): string | null {
    const path = relative(this.folder.path, absolute);
    if (path === '' || path.startsWith('..')) return null;
    return sep === '/' ? path : path.split(sep).join('/');
  }
}

const lookOf = (info: Stats): Look => ({ size: info.size, mtimeMs: info.mtimeMs });
