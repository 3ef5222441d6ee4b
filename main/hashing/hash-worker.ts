// Worker thread: hashes files with streaming SHA-256. Self-contained (Node built-ins only, and
// only erasable TypeScript) so Node runs it directly from source as well as from a bundle.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';

export interface HashJob {
  jobId: number;
  path: string;
  /** Progress is reported for files at least this large, about every `progressEveryBytes`. */
  progressEveryBytes: number;
}

export type HashMessage =
  | { kind: 'progress'; jobId: number; bytesDone: number; bytesTotal: number }
  | { kind: 'done'; jobId: number; hash: string; size: number; mtimeMs: number }
  | { kind: 'changed'; jobId: number }
  | { kind: 'error'; jobId: number; code: string; message: string };

// One reusable buffer per worker keeps memory flat whatever the file size.
const CHUNK = 1024 * 1024;
const buffer = Buffer.allocUnsafe(CHUNK);

async function hashFile(job: HashJob): Promise<HashMessage> {
  const handle = await open(job.path, 'r');
  try {
    const before = await handle.stat();
    const hash = createHash('sha256');
    let done = 0;
    let nextReport = job.progressEveryBytes;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      hash.update(bytesRead === CHUNK ? buffer : buffer.subarray(0, bytesRead));
      done += bytesRead;
      if (done >= nextReport) {
        parentPort?.postMessage({
          kind: 'progress',
          jobId: job.jobId,
          bytesDone: done,
          bytesTotal: before.size,
        });
        nextReport = done + job.progressEveryBytes;
      }
    }
    const after = await handle.stat();
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs || done !== before.size) {
      return { kind: 'changed', jobId: job.jobId };
    }
    return { kind: 'done', jobId: job.jobId, hash: hash.digest('hex'), size: done, mtimeMs: after.mtimeMs };
  } finally {
    await handle.close();
  }
}

parentPort?.on('message', (job: HashJob) => {
  hashFile(job).then(
    (message) => parentPort?.postMessage(message),
    (error: NodeJS.ErrnoException) =>
      parentPort?.postMessage({
        kind: 'error',
        jobId: job.jobId,
        code: error.code ?? 'EIO',
        message: error.message,
      }),
  );
});
