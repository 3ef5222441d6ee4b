import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import type { ProofRead } from '../../verifier/pdf-attachment';
import { proofBytesAtMost, readProofBytes } from '../../verifier/pdf-attachment';
import { LimitExceeded } from '../../protocol/limits';
import { DeskError } from '../errors';
import { said } from '../../protocol/said';

const inflateAsync = promisify(inflate);

/** Inflates up to `maxBytes` and refuses the rest: a 500 KB flate bomb never becomes gigabytes. */
export async function boundedInflate(data: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  try {
    return await inflateAsync(data, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new LimitExceeded('receiptBytes');
    throw error;
  }
}

/**
 * A receipt file, or the receipt a certificate PDF carries. A file that is neither is a value the
 * verifier turns into a `format` failure; a file that is not there is an error. A file larger than
 * any proof is refused by its size, before a byte of it is held (docs/security.md).
 */
export async function readProof(path: string): Promise<ProofRead | { unreadable: string }> {
  let bytes: Buffer;
  try {
    bytes = readFileAtMost(path, (head) => proofBytesAtMost(head));
  } catch (error) {
    if (error instanceof LimitExceeded) return { refused: error.bound };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new DeskError('not_found', said('file.doesNotExist', { path }));
    return { unreadable: `${path} could not be read (${code ?? 'unknown error'}).` };
  }
  return readProofBytes(bytes, (data, maxBytes) =>
    boundedInflate(data, maxBytes).catch((error: unknown) => {
      if (error instanceof LimitExceeded) throw error;
      return new Uint8Array(0);
    }),
  );
}

/**
 * Opens a file the other side sent for reading, without waiting: opening a pipe for reading
 * blocks until something writes to it, so it is opened non-blocking and refused unless it is a
 * regular file (code ENOTREGULAR), before a byte is read.
 */
export function openRegularFile(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  if (fstatSync(fd).isFile()) return fd;
  closeSync(fd);
  throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREGULAR' });
}

/**
 * The whole file, when it is no larger than `most` allows for what its first bytes say it is (one
 * open and one fstat: no extra stat per file of a kit); a pipe or a device is not read.
 */
export function readFileAtMost(path: string, most: (head: Buffer) => number): Buffer {
  const fd = openRegularFile(path);
  try {
    const stat = fstatSync(fd);
    const head = Buffer.alloc(5);
    readSync(fd, head, 0, 5, 0);
    if (stat.size > most(head))
      throw new LimitExceeded(head.toString('latin1') === '%PDF-' ? 'pdfBytes' : 'receiptBytes');
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, bytes, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
