import { Worker } from 'node:worker_threads';
import type { FoundFile, PathProblem } from './expand-paths';
import type { HashMessage, WorkerRequest } from './hash-worker';
import { stopped } from './worker-stop';

/**
 * Takes in a chunk of found files; the next chunk is listed once what it returns has settled, so
 * a consumer that waits for its hashing to catch up holds a bounded number of files, not the folder.
 */
export type TakeFiles = (files: FoundFile[]) => void | Promise<void>;

interface PendingExpansion {
  onFiles: TakeFiles;
  onCounted?: (files: number, bytes: number) => void;
  resolve(expansion: { problems: PathProblem[] }): void;
  reject(error: Error): void;
}

/** The threads that list dropped paths for the hash pool (see `FileListers.expand`). */
export class FileListers {
  /**
   * Each listing has a thread of its own: a production listed at the pace of its hashing (hours,
   * at a million) must not hold up a watched folder's look or a set check. One idle lister is kept
   * warm for the next.
   */
  private readonly listings = new Map<Worker, PendingExpansion>();
  private idleLister: Worker | undefined;
  private closed = false;

  constructor(private readonly workerUrl: URL | string) {
    // One starts with the pool, so the first drop does not wait for a thread to boot.
    this.idleLister = this.spawnLister();
  }

  /**
   * Expands dropped paths into files (see expand-paths.ts) on a worker of its own, off the main
   * thread. Files are handed to `onFiles` in chunks, each listed once the last was taken in; with
   * `onCounted`, the files and bytes are counted first (a total to show). The result carries the problems.
   */
  expand(
    paths: readonly string[],
    onFiles: TakeFiles,
    onCounted?: (files: number, bytes: number) => void,
  ): Promise<{ problems: PathProblem[] }> {
    return new Promise((resolve, reject) => {
      let lister: Worker;
      try {
        lister = this.idleLister ?? this.spawnLister();
      } catch (error) {
        reject(error as Error);
        return;
      }
      this.idleLister = undefined;
      this.listings.set(lister, {
        onFiles,
        ...(onCounted ? { onCounted } : {}),
        resolve,
        reject,
      });
      lister.ref();
      lister.postMessage({ kind: 'expand', paths: [...paths], count: !!onCounted } satisfies WorkerRequest);
    });
  }

  /** Refuses the listings still running (whoever waits on one is not left waiting) and stops the threads. */
  async close(): Promise<void> {
    this.closed = true;
    const listers = [...this.listings.keys(), ...(this.idleLister ? [this.idleLister] : [])];
    for (const listing of this.listings.values()) listing.reject(new Error('The hash pool is closed'));
    this.listings.clear();
    this.idleLister = undefined;
    await Promise.all(listers.map(stopped));
  }

  private spawnLister(): Worker {
    const lister = new Worker(this.workerUrl);
    lister.on('message', (message: HashMessage) => this.onListed(lister, message));
    lister.on('error', (error) => this.onListerDeath(lister, error.message));
    lister.on('exit', () => this.onListerDeath(lister, 'the listing worker stopped'));
    lister.unref();
    return lister;
  }

  private onListed(lister: Worker, message: HashMessage): void {
    const current = this.listings.get(lister);
    if (!current) return;
    if (message.kind === 'counted') {
      try {
        current.onCounted?.(message.files, message.bytes);
      } catch (error) {
        this.endListing(lister, error as Error);
      }
    } else if (message.kind === 'found')
      Promise.resolve()
        .then(() => current.onFiles(message.files))
        .then(
          () => {
            if (this.listings.get(lister) === current)
              lister.postMessage({ kind: 'more' } satisfies WorkerRequest);
          },
          // The listing is abandoned with its taker, and its thread with it.
          (error: unknown) => this.endListing(lister, error as Error),
        );
    else if (message.kind === 'expansion') this.endListing(lister, null, message.problems);
  }

  private endListing(lister: Worker, error: Error | null, problems: PathProblem[] = []): void {
    const current = this.listings.get(lister);
    if (!current) return;
    this.listings.delete(lister);
    if (error) current.reject(error);
    else current.resolve({ problems });
    if (error || this.closed || this.idleLister) void stopped(lister);
    else {
      lister.unref();
      this.idleLister = lister;
    }
  }

  private onListerDeath(lister: Worker, reason: string): void {
    if (lister === this.idleLister) this.idleLister = undefined;
    const current = this.listings.get(lister);
    if (!current) return;
    this.listings.delete(lister);
    current.reject(new Error(`Listing the files failed: ${reason}.`));
  }
}
