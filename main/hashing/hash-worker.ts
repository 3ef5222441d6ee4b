// Worker thread: hashes files with streaming SHA-256. Self-contained (Node built-ins only, and
// only erasable TypeScript) so Node runs it directly from source as well as from a bundle.
// Blocking reads are right here: this thread does nothing else, and they skip a thread-pool hop per call.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { FoundFile, PathProblem } from './expand-paths.ts';
import { NOT_REGULAR, inChunks, listFiles } from './expand-paths.ts';

export interface HashJob {
  jobId: number;
  path: string;
  /** The exact bytes to open, for a name that is not UTF-8 (see FoundFile). */
  rawPath?: Uint8Array;
  /** Digests wanted besides SHA-256 (a load file's MD5 or SHA-1), computed in the same read. */
  also?: ExtraDigest[];
  /** The size and time the listing saw: the file must still have them when it has been read. */
  seen?: { size: number; mtimeMs: number };
}

/** Digests other tools keep in their manifests; SHA-256 is always computed. */
export type ExtraDigest = 'md5' | 'sha1';

export type WorkerRequest =
  | {
      kind: 'hash';
      jobs: HashJob[];
      /** Progress is reported about every this many bytes of a file. */
      progressEveryBytes: number;
    }
  /** Lists the paths' files (counted first when `count`), a chunk at a time: the next on `more`. */
  | { kind: 'expand'; paths: string[]; count: boolean }
  | { kind: 'more' };

export type HashResult =
  | {
      kind: 'done';
      jobId: number;
      hash: string;
      size: number;
      mtimeMs: number;
      also?: Partial<Record<ExtraDigest, string>>;
    }
  | { kind: 'changed'; jobId: number }
  | { kind: 'error'; jobId: number; code: string; message: string };

export type HashMessage =
  | { kind: 'progress'; jobId: number; bytesDone: number; bytesTotal: number }
  | { kind: 'batch'; results: HashResult[] }
  | { kind: 'counted'; files: number; bytes: number }
  | { kind: 'found'; files: FoundFile[] }
  | { kind: 'expansion'; problems: PathProblem[] };

// One reusable buffer per worker keeps memory flat whatever the file size.
const CHUNK = 4 * 1024 * 1024;
const buffer = Buffer.allocUnsafe(CHUNK);

// Non-blocking open: a path swapped for a pipe after it was listed must not block this thread
// forever waiting for a writer. What was opened is then checked on the descriptor itself.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function hashFile(job: HashJob, progressEveryBytes: number): HashResult {
  const fd = openSync(job.rawPath ? Buffer.from(job.rawPath) : job.path, OPEN_FLAGS);
  try {
    // A listed file was looked at a moment ago; one given alone is looked at now.
    let before = job.seen;
    if (!before) {
      const info = fstatSync(fd);
      if (!info.isFile()) return notRegular(job);
      before = info;
    }
    const hash = createHash('sha256');
    const extra = (job.also ?? []).map((name) => [name, createHash(name)] as const);
    let done = 0;
    let nextReport = progressEveryBytes;
    for (;;) {
      let bytesRead: number;
      try {
        bytesRead = readSync(fd, buffer, 0, CHUNK, null);
      } catch (error) {
        // What was listed as a file is now a folder, or a pipe with a writer.
        if (!fstatSync(fd).isFile()) return notRegular(job);
        throw error;
      }
      if (bytesRead === 0) break;
      const reachedSize = done + bytesRead === before.size;
      const chunk = bytesRead === CHUNK ? buffer : buffer.subarray(0, bytesRead);
      hash.update(chunk);
      for (const [, other] of extra) other.update(chunk);
      done += bytesRead;
      if (done >= nextReport) {
        parentPort?.postMessage({
          kind: 'progress',
          jobId: job.jobId,
          bytesDone: done,
          bytesTotal: before.size,
        });
        nextReport = done + progressEveryBytes;
      }
      // A short read that reaches the size seen is the end; more than that (a grown file, or a
      // device put in its place, which never ends) is caught below.
      if ((reachedSize && bytesRead < CHUNK) || done > before.size) break;
    }
    const after = fstatSync(fd);
    if (!after.isFile()) return notRegular(job);
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs || done !== before.size) {
      return { kind: 'changed', jobId: job.jobId };
    }
    const result: HashResult = {
      kind: 'done',
      jobId: job.jobId,
      hash: hash.digest('hex'),
      size: done,
      mtimeMs: after.mtimeMs,
    };
    if (extra.length)
      result.also = Object.fromEntries(extra.map(([name, other]) => [name, other.digest('hex')]));
    return result;
  } finally {
    closeSync(fd);
  }
}

const notRegular = (job: HashJob): HashResult => ({
  kind: 'error',
  jobId: job.jobId,
  code: NOT_REGULAR,
  message: 'not a regular file',
});

// A chunk of found files is a message; the next is listed when asked for.
const CHUNK_FILES = 1024;
let listing: Generator<FoundFile[], PathProblem[]> | null = null;

function handOutNext(): void {
  const next = listing?.next();
  if (!next) return;
  if (next.done) {
    listing = null;
    parentPort?.postMessage({ kind: 'expansion', problems: next.value });
  } else parentPort?.postMessage({ kind: 'found', files: next.value });
}

// While counting, the count so far is said this often: once for a local folder, growing on a slow share.
const COUNT_SAID_EVERY_MS = 1000;

/** How many files and bytes the paths hold, said as they are counted: a total to show before hashing. */
function countAhead(paths: readonly string[]): void {
  const counted = { kind: 'counted', files: 0, bytes: 0 };
  let saidAt = performance.now();
  for (const file of listFiles(paths)) {
    counted.files++;
    counted.bytes += file.size;
    if (counted.files % CHUNK_FILES === 0 && performance.now() - saidAt >= COUNT_SAID_EVERY_MS) {
      parentPort?.postMessage(counted);
      saidAt = performance.now();
    }
  }
  parentPort?.postMessage(counted);
}

parentPort?.on('message', (request: WorkerRequest) => {
  if (request.kind === 'expand') {
    if (request.count) countAhead(request.paths);
    listing = inChunks(listFiles(request.paths), CHUNK_FILES);
    handOutNext();
    return;
  }
  if (request.kind === 'more') {
    handOutNext();
    return;
  }
  const results = request.jobs.map((job): HashResult => {
    try {
      return hashFile(job, request.progressEveryBytes);
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      return { kind: 'error', jobId: job.jobId, code: failure.code ?? 'EIO', message: failure.message };
    }
  });
  parentPort?.postMessage({ kind: 'batch', results });
});
