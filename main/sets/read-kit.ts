import type { Dirent } from 'node:fs';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import yauzl from 'yauzl';
import type { Trust } from '../../verifier/verify-receipt';
import type { KitFile } from '../../verifier/sets/kit-receipt';
import { kitReader, passedBound } from '../../verifier/sets/kit-receipt';
import { LIMITS, LimitExceeded } from '../../protocol/limits';
import { readFileAtMost } from '../evidence/read-proof';
import type { Said } from '../../protocol/said';
import { nodeEd25519Verify } from '../tools/native-signature';
import { UnreadableReference } from './read-load-file';
import type { Reference } from '../../verifier/sets/reference';
import { EntriesBuilder } from '../store';
import { readerTurns } from '../tools/event-loop-turns';
import { said } from '../../protocol/said';

const RECEIPT = /(^|\/)certifications\/[^/]+\.receipt\.json$/;

/**
 * The receipts of an evidence kit, from its folder (in name order) or its zip (in the zip's
 * order), one at a time: a kit of 100,000 receipts is not held in memory. Within the bounds of
 * docs/security.md: nothing but a regular file is opened, nothing larger than a receipt is read,
 * and a zip is refused whole when its entries expand past what any genuine kit's could.
 */
async function* receiptsOf(path: string): AsyncGenerator<KitFile> {
  const info = statSync(path);
  if (!info.isDirectory() && !info.isFile()) throw new UnreadableReference(path, said('sets.why.notAZip'));
  if (info.isDirectory()) {
    const folder = join(path, 'certifications');
    if (!existsSync(folder)) throw new UnreadableReference(path, said('sets.why.notAKit'));
    for (const entry of readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.name.endsWith('.receipt.json'))
      .sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const where = join(folder, entry.name);
      // lstat's answer, from the listing: a pipe would hang a read, a link could lead anywhere.
      if (!entry.isFile()) yield { where, why: notAReceiptFile(entry) };
      else yield receiptFile(where);
    }
    return;
  }
  yield* zipReceipts(path);
}

/** A receipt's bytes, or why they are not read: larger than any receipt (by its size, unread). */
function receiptFile(where: string): KitFile {
  try {
    return { where, bytes: readFileAtMost(where, () => LIMITS.receiptBytes) };
  } catch (error) {
    if (error instanceof LimitExceeded) return { where, why: passedBound(error.bound) };
    throw error;
  }
}

function notAReceiptFile(entry: Dirent): Said {
  if (entry.isSymbolicLink()) return said('sets.why.link');
  if (entry.isDirectory()) return said('sets.why.folder');
  return said('file.notADocument', {
    kind: said(
      entry.isFIFO() ? 'file.kind.fifo' : entry.isSocket() ? 'file.kind.socket' : 'file.kind.device',
    ),
  });
}

async function* zipReceipts(path: string): AsyncGenerator<KitFile> {
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
      if (!RECEIPT.test(entry.fileName)) continue;
      const where = `${path}: ${entry.fileName}`;
      // Entries that share bytes: at one local header, or more compressed data than the file holds.
      compressed += entry.compressedSize;
      if (localHeaders.has(entry.relativeOffsetOfLocalHeader) || compressed > zip.fileSize)
        throw new UnreadableReference(path, said('sets.why.zipOverlapping'));
      localHeaders.add(entry.relativeOffsetOfLocalHeader);
      if (entry.uncompressedSize > LIMITS.receiptBytes) {
        yield { where, why: passedBound('receiptBytes') };
        continue;
      }
      if (entry.uncompressedSize > LIMITS.zipEntryRatio * Math.max(entry.compressedSize, 1024)) {
        yield { where, why: passedBound('zipEntryRatio') };
        continue;
      }
      expanded += entry.uncompressedSize;
      if (expanded > mostExpanded)
        throw new UnreadableReference(
          path,
          passedBound(expanded > LIMITS.zipExpandedBytes ? 'zipExpandedBytes' : 'zipEntryRatio'),
        );
      yield { where, bytes: await bytesOf(zip, entry, path) };
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

/** An entry's bytes; yauzl stops at the size the entry declares, which is bounded above. */
function bytesOf(zip: yauzl.ZipFile, entry: yauzl.Entry, path: string): Promise<Buffer> {
  const unreadable = () =>
    new UnreadableReference(`${path}: ${entry.fileName}`, said('sets.why.cannotRead', { code: 'zip' }));
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(unreadable());
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', () => reject(unreadable()));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    }),
  );
}

/**
 * An evidence kit: each receipt is checked as `verify --receipt` would (signature, proof, signed
 * copies). Receipts that hold are the reference, those resting on a key or root not trusted here
 * included (they are named, and their documents are not verified); each one that does not hold is
 * reported, with its verdict, and its document is then not found certified.
 */
export async function readKit(
  path: string,
  trust: Trust,
  entries: EntriesBuilder = new EntriesBuilder(),
  { trustKit = false }: { trustKit?: boolean } = {},
): Promise<Reference> {
  if (!existsSync(path)) throw new UnreadableReference(path, said('sets.why.doesNotExist'));
  const kit = kitReader(trust, { trustKit, verifyEd25519: nodeEd25519Verify }, (entry) => entries.add(entry));
  for await (const file of receiptsOf(path)) await kit.take(file);
  return {
    kind: 'kit',
    source: path,
    entries: await entries.seal({ fromWindows: false }, readerTurns()),
    digests: [],
    ...kit.finish(),
  };
}
