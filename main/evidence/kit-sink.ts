import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { KIT_MIMETYPE_FILE } from '../../verifier/kit-manifest';
import { BoundedWork } from '../tools/bounded-work';

/** Where a kit's files go as they are made: a folder, a zip, or both. Each file is written once. */
export interface KitSink {
  /** One file of the kit, by its path inside it ("certifications/A.pdf.receipt.json"). */
  put(path: string, data: Buffer | string): Promise<void>;
  /** Every file is in: the zip is complete and takes its name. */
  finish(): Promise<void>;
  /** The kit failed or was stopped: a zip being written goes (the folder is the caller's, once this resolves). */
  abandon(): Promise<void>;
}

// Files being written into a folder at once: one at a time, the thread waited on the disk for a
// third of a receipts-only kit's time.
const WRITING_AT_ONCE = 16;

export function folderSink(dir: string): KitSink {
  const folders = new Set(['', 'certifications']);
  mkdirSync(join(dir, 'certifications'), { recursive: true });
  const writes = new BoundedWork(WRITING_AT_ONCE);
  let abandoned = false;
  const refuseIfAbandoned = () => {
    if (abandoned) throw new Error('The kit was abandoned.');
  };
  return {
    put: async (path, data) => {
      refuseIfAbandoned();
      await writes.add(async () => {
        refuseIfAbandoned();
        const folder = dirname(path) === '.' ? '' : dirname(path);
        if (!folders.has(folder)) {
          mkdirSync(join(dir, folder), { recursive: true });
          folders.add(folder);
        }
        await writeFile(join(dir, path), data);
      });
    },
    finish: () => writes.finish(),
    // What is still being written lands before the kit's files are taken away; nothing starts after.
    abandon: async () => {
      abandoned = true;
      await writes.settled();
    },
  };
}

// Files handed to the zip and not yet read by it: enough to keep it busy, few enough that memory
// holds only them, not the kit.
const WAITING_AT_MOST = 16;

/**
 * Streams the kit straight into a zip, under a `.partial` name until it is whole. Its files are at
 * the zip's root, as an ASiC-E container has them (`mimetype` first, stored, with no extra field).
 * yazl reads each file only when its turn comes; `put` waits while too many are waiting.
 */
export function zipSink(zipPath: string): KitSink {
  mkdirSync(dirname(zipPath), { recursive: true });
  const partial = `${zipPath}.partial`;
  const zip = new ZipFile();
  const out = createWriteStream(partial);
  const written = new Promise<void>((resolve, reject) => {
    zip.outputStream.on('error', reject).pipe(out).on('error', reject).on('close', resolve);
  });
  // Failing before finish() is the kit's own failure: it is raised there, or the kit is abandoned.
  written.catch(() => undefined);
  const waiting: Promise<void>[] = [];
  return {
    async put(path, data) {
      while (waiting.length >= WAITING_AT_MOST) await waiting.shift();
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      if (path === KIT_MIMETYPE_FILE) {
        // Read by its offset: a reader knows the container by the bytes at 30 and 38.
        zip.addBuffer(bytes, path, { compress: false, forceDosTimestamp: true });
        return;
      }
      const stream = releasingStream(bytes);
      waiting.push(new Promise((resolve) => stream.once('end', resolve).once('close', resolve)));
      zip.addReadStream(stream, path, {
        size: bytes.length,
        // A PDF's streams are compressed already: deflating it again made a kit 8% smaller for more
        // than half of the zip's time.
        compress: !path.toLowerCase().endsWith('.pdf'),
      });
    },
    async finish() {
      zip.end();
      await written;
      renameSync(partial, zipPath);
    },
    async abandon() {
      out.destroy();
      rmSync(partial, { force: true });
    },
  };
}

/**
 * A stream of `bytes` that lets go of them once read: yazl keeps every entry, and its stream, until
 * the zip ends (Readable.from kept the whole kit in memory that way).
 */
function releasingStream(bytes: Buffer): Readable {
  let held: Buffer | null = bytes;
  return new Readable({
    read() {
      const chunk = held;
      held = null;
      this.push(chunk);
      if (chunk) this.push(null);
    },
  });
}

/** Both at once: each file written into the folder and the zip, made once. */
export function bothSinks(...sinks: KitSink[]): KitSink {
  return {
    put: async (path, data) => void (await Promise.all(sinks.map((sink) => sink.put(path, data)))),
    // One after the other: a zip takes its name only once the folder beside it is whole.
    finish: async () => {
      for (const sink of sinks) await sink.finish();
    },
    abandon: async () => void (await Promise.all(sinks.map((sink) => sink.abandon()))),
  };
}
