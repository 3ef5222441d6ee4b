import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { LIMITS, LimitExceeded } from '../../protocol/limits';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import { passedBound } from '../../verifier/sets/kit-receipt';
import { KitSealReader } from '../../verifier/sets/kit-seal';
import { readFileAtMost } from '../evidence/read-proof';
import { UnreadableReference } from './read-load-file';

// Under a folder too: zips made before kits were ASiC-E containers put everything in evidence-kit/.
const RECEIPT = /(^|\/)certifications\/[^/]+\.receipt\.json$/;

/**
 * One file of an evidence kit, as read for its check: its path inside the kit, its SHA-256 (for the
 * kit's seal), and for a receipt or one of the seal's own files its bytes, or why they were not read.
 */
export interface KitEntry {
  /** Inside the kit, with "/" ("certifications/A.pdf.receipt.json"). */
  path: string;
  /** Where it is, for a person: the file's path, or the zip's and the entry's. */
  where: string;
  /** SHA-256 in hex; null when it was not read (not a regular file, or refused). */
  sha256: string | null;
  receipt: boolean;
  read: { bytes: Uint8Array } | { why: Said } | null;
}

/** Whether this file's bytes are wanted, and how many at most. */
const boundFor = (path: string) =>
  RECEIPT.test(path) ? LIMITS.receiptBytes : KitSealReader.wantsBytes(path) ? LIMITS.kitSealPartBytes : null;

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** SHA-256 of a stream, read through without keeping it. */
async function streamedSha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A stream's bytes; yauzl stops at the size the entry declares, which is bounded above. */
async function streamedBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Every file of a kit, from its folder (in name order) or its zip (in the zip's order), one at a
 * time: a kit of 100,000 receipts is not held in memory. Within the bounds of docs/security.md:
 * nothing but a regular file is opened, no receipt larger than one is read, and a zip is refused
 * whole when its entries expand past what any genuine kit's could. Large files are hashed as they
 * stream by.
 */
export async function* kitEntries(path: string): AsyncGenerator<KitEntry> {
  let info;
  try {
    info = statSync(path);
  } catch {
    throw new UnreadableReference(path, said('sets.why.doesNotExist'));
  }
  if (info.isDirectory()) yield* folderEntries(path);
  else if (info.isFile()) yield* zipEntries(path);
  else throw new UnreadableReference(path, said('sets.why.notAZip'));
}

async function* folderEntries(kit: string): AsyncGenerator<KitEntry> {
  if (!existsSync(join(kit, 'certifications'))) throw new UnreadableReference(kit, said('sets.why.notAKit'));
  let files = 0;
  // Depth first, each folder in name order; links are named, never followed.
  const stack: [string, number][] = [[kit, 0]];
  while (stack.length > 0) {
    const [folder, depth] = stack.pop() as [string, number];
    if (depth > LIMITS.pathDepth) throw new UnreadableReference(kit, passedBound('pathDepth'));
    const listed = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? 1 : -1));
    for (const entry of listed) {
      const where = join(folder, entry.name);
      const path = relative(kit, where).split(sep).join('/');
      if (entry.isDirectory() && !RECEIPT.test(path)) {
        stack.push([where, depth + 1]);
        continue;
      }
      if (++files > LIMITS.zipEntries) throw new UnreadableReference(kit, passedBound('zipEntries'));
      yield await folderEntry(path, where, entry);
    }
  }
}

async function folderEntry(path: string, where: string, entry: Dirent): Promise<KitEntry> {
  const receipt = RECEIPT.test(path);
  // lstat's answer, from the listing: a pipe would hang a read, a link could lead anywhere.
  if (!entry.isFile()) return { path, where, sha256: null, receipt, read: { why: notARegularFile(entry) } };
  const bound = boundFor(path);
  if (bound !== null) {
    try {
      const bytes = readFileAtMost(where, () => bound);
      return { path, where, sha256: sha256Of(bytes), receipt, read: { bytes } };
    } catch (error) {
      if (!(error instanceof LimitExceeded)) throw error;
      const sha256 = await streamedSha256(createReadStream(where));
      return { path, where, sha256, receipt, read: { why: passedBound(error.bound) } };
    }
  }
  return { path, where, sha256: await streamedSha256(createReadStream(where)), receipt, read: null };
}

function notARegularFile(entry: Dirent): Said {
  if (entry.isSymbolicLink()) return said('sets.why.link');
  if (entry.isDirectory()) return said('sets.why.folder');
  return said('file.notADocument', {
    kind: said(
      entry.isFIFO() ? 'file.kind.fifo' : entry.isSocket() ? 'file.kind.socket' : 'file.kind.device',
    ),
  });
}

async function* zipEntries(path: string): AsyncGenerator<KitEntry> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true }, (error, opened) =>
      error || !opened ? reject(new UnreadableReference(path, said('sets.why.notAZip'))) : resolve(opened),
    ),
  );
  try {
    if (zip.entryCount > LIMITS.zipEntries) throw new UnreadableReference(path, passedBound('zipEntries'));
    // Every byte expanded counts against the zip's size: entries that share their compressed
    // data (an overlapping zip bomb) pass this bound together long before they cost minutes.
    const mostExpanded = Math.min(
      LIMITS.zipExpandedBytes,
      LIMITS.zipEntryRatio * Math.max(zip.fileSize, 64 * 1024),
    );
    let expanded = 0;
    let compressed = 0;
    const localHeaders = new Set<number>();
    for (let entry = await nextEntry(zip, path); entry; entry = await nextEntry(zip, path)) {
      if (entry.fileName.endsWith('/')) continue;
      const inKit = entry.fileName;
      const where = `${path}: ${inKit}`;
      const receipt = RECEIPT.test(inKit);
      // Entries that share bytes: at one local header, or more compressed data than the file holds.
      compressed += entry.compressedSize;
      if (localHeaders.has(entry.relativeOffsetOfLocalHeader) || compressed > zip.fileSize)
        throw new UnreadableReference(path, said('sets.why.zipOverlapping'));
      localHeaders.add(entry.relativeOffsetOfLocalHeader);
      const bound = boundFor(inKit);
      if (bound !== null && entry.uncompressedSize > bound) {
        yield {
          path: inKit,
          where,
          sha256: null,
          receipt,
          read: { why: passedBound(receipt ? 'receiptBytes' : 'kitSealPartBytes') },
        };
        continue;
      }
      if (entry.uncompressedSize > LIMITS.zipEntryRatio * Math.max(entry.compressedSize, 1024)) {
        yield { path: inKit, where, sha256: null, receipt, read: { why: passedBound('zipEntryRatio') } };
        continue;
      }
      expanded += entry.uncompressedSize;
      if (expanded > mostExpanded)
        throw new UnreadableReference(
          path,
          passedBound(expanded > LIMITS.zipExpandedBytes ? 'zipExpandedBytes' : 'zipEntryRatio'),
        );
      const unreadable = new UnreadableReference(where, said('sets.why.cannotRead', { code: 'zip' }));
      const stream = await entryStream(zip, entry).catch(() => Promise.reject(unreadable));
      if (bound === null) {
        const sha256 = await streamedSha256(stream).catch(() => Promise.reject(unreadable));
        yield { path: inKit, where, sha256, receipt, read: null };
        continue;
      }
      const bytes = await streamedBytes(stream).catch(() => Promise.reject(unreadable));
      yield { path: inKit, where, sha256: sha256Of(bytes), receipt, read: { bytes } };
    }
  } finally {
    zip.close();
  }
}

/** The zip's next entry, or null at its end. */
function nextEntry(zip: yauzl.ZipFile, path: string): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const done = () => zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
    const onEntry = (entry: yauzl.Entry) => (done(), resolve(entry));
    const onEnd = () => (done(), resolve(null));
    const onError = () => (done(), reject(new UnreadableReference(path, said('sets.why.zipDamaged'))));
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(error) : resolve(stream))),
  );
}
