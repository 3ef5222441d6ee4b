import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PathProblemCode } from './expand-paths';
import type { HashJob, HashMessage } from './hash-worker';

export interface FileHash {
  hash: string;
  size: number;
  mtimeMs: number;
}

export type HashOutcome = ({ ok: true } & FileHash) | { ok: false; code: PathProblemCode; message: string };

interface PendingJob {
  job: HashJob;
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
  resolve(outcome: HashOutcome): void;
}

// The worker sits beside this module: .ts when run from source, .js once bundled.
const WORKER_URL = new URL(`./hash-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/**
 * Hashes files in worker threads, one file per worker at a time, as many workers as the
 * machine has cores: the main process never blocks and large batches use every core.
 */
export class HashPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, PendingJob>();
  private readonly waiting: PendingJob[] = [];
  private nextJobId = 1;
  private closed = false;

  constructor(
    private readonly size = Math.max(1, availableParallelism()),
    private readonly progressEveryBytes = 8 * 1024 * 1024,
  ) {}

  hash(path: string, onProgress?: (bytesDone: number, bytesTotal: number) => void): Promise<HashOutcome> {
    if (this.closed) return Promise.reject(new Error('The hash pool is closed'));
    return new Promise((resolve) => {
      this.waiting.push({
        job: { jobId: this.nextJobId++, path, progressEveryBytes: this.progressEveryBytes },
        onProgress,
        resolve,
      });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.idle, ...this.busy.keys()].map((worker) => worker.terminate()));
    this.idle.length = 0;
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const worker = this.idle.pop() ?? (this.busy.size < this.size ? this.spawn() : undefined);
      if (!worker) return;
      const pending = this.waiting.shift() as PendingJob;
      this.busy.set(worker, pending);
      // A busy worker keeps the process alive until its answer arrives; an idle one does not.
      worker.ref();
      worker.postMessage(pending.job);
    }
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_URL);
    worker.on('message', (message: HashMessage) => this.onMessage(worker, message));
    worker.on('error', (error) => this.onWorkerDeath(worker, error.message));
    worker.on('exit', () => this.onWorkerDeath(worker, 'the hashing worker stopped'));
    return worker;
  }

  private onMessage(worker: Worker, message: HashMessage): void {
    const pending = this.busy.get(worker);
    if (!pending || pending.job.jobId !== message.jobId) return;
    if (message.kind === 'progress') {
      pending.onProgress?.(message.bytesDone, message.bytesTotal);
      return;
    }
    this.busy.delete(worker);
    worker.unref();
    if (!this.closed) this.idle.push(worker);
    pending.resolve(toOutcome(message));
    this.dispatch();
  }

  private onWorkerDeath(worker: Worker, reason: string): void {
    const pending = this.busy.get(worker);
    this.busy.delete(worker);
    const idleIndex = this.idle.indexOf(worker);
    if (idleIndex >= 0) this.idle.splice(idleIndex, 1);
    if (pending && !this.closed) {
      pending.resolve({ ok: false, code: 'unreadable', message: `Hashing failed: ${reason}.` });
      this.dispatch();
    }
  }
}

function toOutcome(message: Exclude<HashMessage, { kind: 'progress' }>): HashOutcome {
  switch (message.kind) {
    case 'done':
      return { ok: true, hash: message.hash, size: message.size, mtimeMs: message.mtimeMs };
    case 'changed':
      return {
        ok: false,
        code: 'changed_while_hashing',
        message: 'The file changed while it was being hashed — save it, then add it again.',
      };
    case 'error':
      if (message.code === 'EACCES' || message.code === 'EPERM') {
        return {
          ok: false,
          code: 'permission_denied',
          message: 'You do not have permission to read this file.',
        };
      }
      if (message.code === 'ENOENT')
        return { ok: false, code: 'not_found', message: 'The file disappeared before it could be hashed.' };
      return { ok: false, code: 'unreadable', message: `The file could not be read (${message.code}).` };
  }
}
