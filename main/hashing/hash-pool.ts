import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerBeside } from '../worker-url';
import type { FoundFile, PathProblem, PathProblemCode } from './expand-paths';
import { NOT_REGULAR } from './expand-paths';
import type { TakeFiles } from './file-listers';
import { FileListers } from './file-listers';
import { stopped } from './worker-stop';
import type { ExtraDigest, HashJob, HashMessage, HashResult, WorkerRequest } from './hash-worker';

export type { ExtraDigest };
import { said } from '../../protocol/said';
import type { Said } from '../../protocol/said';

export interface FileHash {
  hash: string;
  size: number;
  mtimeMs: number;
  /** The other digests asked for (MD5, SHA-1), from the same read. */
  also?: Partial<Record<ExtraDigest, string>>;
}

export type HashOutcome = ({ ok: true } & FileHash) | { ok: false; code: PathProblemCode; said: Said };

interface Assignment {
  jobs: Map<number, PendingJob>;
}

interface PendingJob {
  job: HashJob;
  sizeHint: number;
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
  resolve(outcome: HashOutcome): void;
}

const WORKER_URL = workerBeside(import.meta.url, 'hash-worker');

// Small files travel to a worker in batches, so a folder of thousands is not thousands of messages.
const BATCH_FILES = 256;
const BATCH_BYTES = 4 * 1024 * 1024;
const MAX_IN_FLIGHT = 2;

/**
 * Hashes files in worker threads, as many as the machine has cores: the main process never
 * blocks and large batches use every core. Each worker takes one batch at a time.
 */
export class HashPool {
  /** Each worker's assignments, oldest first: a worker answers them in order. */
  private readonly inFlight = new Map<Worker, Assignment[]>();
  private readonly waiting: PendingJob[] = [];
  private readonly listers = new FileListers(WORKER_URL);
  private nextJobId = 1;
  private closed = false;

  constructor(
    private readonly size = Math.max(1, availableParallelism()),
    private readonly progressEveryBytes = 8 * 1024 * 1024,
  ) {
    // Workers start with the pool, so the first file dropped does not wait for a thread to boot.
    for (let i = 0; i < this.size; i++) this.spawn();
  }

  /**
   * Expands dropped paths into files (see expand-paths.ts) on a thread of its own, off the main
   * thread (file-listers.ts): in chunks, each listed once the last was taken in, counted first
   * with `onCounted`. The result carries the problems.
   */
  expand(
    paths: readonly string[],
    onFiles: TakeFiles,
    onCounted?: (files: number, bytes: number) => void,
  ): Promise<{ problems: PathProblem[] }> {
    if (this.closed) return Promise.reject(new Error('The hash pool is closed'));
    return this.listers.expand(paths, onFiles, onCounted);
  }

  /**
   * A path, or a found file (with its exact bytes when its name is not UTF-8, and the size and time
   * its listing saw, which it must still have once read). `sizeHint` (bytes, when known) lets
   * small files share a batch.
   */
  hash(
    file: string | (Pick<FoundFile, 'path' | 'rawPath'> & Partial<Pick<FoundFile, 'size' | 'mtimeMs'>>),
    onProgress?: (bytesDone: number, bytesTotal: number) => void,
    sizeHint = Infinity,
    also: readonly ExtraDigest[] = [],
  ): Promise<HashOutcome> {
    if (this.closed) return Promise.reject(new Error('The hash pool is closed'));
    const { path, rawPath } = typeof file === 'string' ? { path: file, rawPath: undefined } : file;
    return new Promise((resolve) => {
      const job: HashJob = { jobId: this.nextJobId++, path, ...(rawPath ? { rawPath } : {}) };
      if (also.length) job.also = [...also];
      if (typeof file !== 'string' && file.size !== undefined && file.mtimeMs !== undefined)
        job.seen = { size: file.size, mtimeMs: file.mtimeMs };
      this.waiting.push({ job, sizeHint, onProgress, resolve });
      // Let callers queue a whole folder before the first batch is cut.
      if (this.waiting.length === 1) queueMicrotask(() => this.dispatch());
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.listers.close(), ...[...this.inFlight.keys()].map(stopped)]);
    this.inFlight.clear();
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const worker = this.leastBusyWorker();
      if (!worker) return;
      const batch = this.cutBatch();
      (this.inFlight.get(worker) as Assignment[]).push({
        jobs: new Map(batch.map((pending) => [pending.job.jobId, pending])),
      });
      const request: WorkerRequest = {
        kind: 'hash',
        jobs: batch.map((pending) => pending.job),
        progressEveryBytes: this.progressEveryBytes,
      };
      // A busy worker keeps the process alive until its answers arrive; an idle one does not.
      worker.ref();
      worker.postMessage(request);
    }
  }

  /**
   * A worker with room for another assignment. Two may wait at a worker, so it goes straight on
   * to the next batch while the main thread is busy writing the last one's rows.
   */
  private leastBusyWorker(): Worker | undefined {
    let best: Worker | undefined;
    for (const [worker, queue] of this.inFlight) {
      if (
        queue.length < MAX_IN_FLIGHT &&
        (!best || queue.length < (this.inFlight.get(best) as Assignment[]).length)
      )
        best = worker;
    }
    return best;
  }

  /** Spreads the waiting files over the workers, a batch bounded in files and bytes. */
  private cutBatch(): PendingJob[] {
    const share = Math.ceil(this.waiting.length / (this.size * MAX_IN_FLIGHT));
    const batch: PendingJob[] = [this.waiting.shift() as PendingJob];
    let bytes = batch[0]?.sizeHint ?? 0;
    while (this.waiting.length > 0 && batch.length < Math.min(BATCH_FILES, share)) {
      const next = this.waiting[0] as PendingJob;
      if (bytes + next.sizeHint > BATCH_BYTES) break;
      bytes += next.sizeHint;
      batch.push(this.waiting.shift() as PendingJob);
    }
    return batch;
  }

  private spawn(): void {
    const worker = new Worker(WORKER_URL);
    this.inFlight.set(worker, []);
    worker.on('message', (message: HashMessage) => this.onMessage(worker, message));
    worker.on('error', (error) => this.onWorkerDeath(worker, error.message));
    worker.on('exit', () => this.onWorkerDeath(worker, 'the hashing worker stopped'));
    worker.unref();
  }

  private onMessage(worker: Worker, message: HashMessage): void {
    const queue = this.inFlight.get(worker);
    const current = queue?.[0];
    if (!queue || !current) return;
    if (message.kind === 'progress') {
      current.jobs.get(message.jobId)?.onProgress?.(message.bytesDone, message.bytesTotal);
      return;
    }
    if (message.kind !== 'batch') return;
    queue.shift();
    if (queue.length === 0) worker.unref();
    for (const result of message.results) current.jobs.get(result.jobId)?.resolve(toOutcome(result));
    this.dispatch();
  }

  /** A worker that dies fails what it held, alone, and is replaced. */
  private onWorkerDeath(worker: Worker, reason: string): void {
    const queue = this.inFlight.get(worker);
    if (!queue) return;
    this.inFlight.delete(worker);
    if (this.closed) return;
    for (const assignment of queue)
      for (const pending of assignment.jobs.values())
        pending.resolve({ ok: false, code: 'unreadable', said: said('file.hashingFailed', { reason }) });
    this.spawn();
    this.dispatch();
  }
}

function toOutcome(result: HashResult): HashOutcome {
  switch (result.kind) {
    case 'done':
      return {
        ok: true,
        hash: result.hash,
        size: result.size,
        mtimeMs: result.mtimeMs,
        ...(result.also ? { also: result.also } : {}),
      };
    case 'changed':
      return {
        ok: false,
        code: 'changed_while_hashing',
        said: said('file.changedWhileHashing'),
      };
    case 'error':
      if (result.code === 'EACCES' || result.code === 'EPERM') {
        return {
          ok: false,
          code: 'permission_denied',
          said: said('file.noPermission'),
        };
      }
      if (result.code === NOT_REGULAR)
        return {
          ok: false,
          code: 'not_regular_file',
          said: said('file.replaced'),
        };
      if (result.code === 'ENOENT') return { ok: false, code: 'not_found', said: said('file.disappeared') };
      return { ok: false, code: 'unreadable', said: said('file.unreadable', { code: result.code }) };
  }
}
