import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ZipFile } from 'yazl';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import { KIT_MANIFEST_FILE, KIT_MIMETYPE_FILE, KIT_SEAL_WAITING_FILE } from '../../verifier/kit-manifest';
import type { KitSeal } from '../store';
import type { DocumentTimestamp, DocumentTimestamper } from '../tools/pdf/seal';
import { putSealFiles } from './kit-seal-writer';

/** What became of a waiting seal when its authority was asked again. */
export type SealCompletion = { sealed: true } | { sealed: false; problem: Said; final: boolean };

/**
 * Adds a waiting seal to the kit it belongs to: the manifest as saved (checked against its SHA-256,
 * so that a kit changed since is never sealed), one token over it, and the seal's files beside it,
 * in the folder and the zip alike; the note that said the seal was waiting goes.
 */
export async function completeKitSeal(
  seal: KitSeal,
  timestamper: DocumentTimestamper,
): Promise<SealCompletion> {
  const manifests = [
    ...(seal.dir ? [manifestInFolder(seal.dir)] : []),
    ...(seal.zip ? [await manifestInZip(seal.zip)] : []),
  ];
  const where = seal.dir ?? seal.zip ?? '';
  if (manifests.some((manifest) => manifest === null))
    return { sealed: false, problem: said('exports.sealWaiting.kitGone', { where }), final: true };
  const manifest = manifests[0] as Buffer;
  if (
    manifests.some(
      (m) =>
        createHash('sha256')
          .update(m as Buffer)
          .digest('hex') !== seal.manifestSha256,
    )
  )
    return { sealed: false, problem: said('exports.sealWaiting.kitChanged', { where }), final: true };
  const answer = await timestamper(manifest);
  if ('problem' in answer)
    return {
      sealed: false,
      problem: answer.reason ?? said('exports.sealWaiting.refused', { why: answer.problem }),
      final: answer.final === true,
    };
  if (seal.dir) await sealFolder(seal.dir, answer);
  if (seal.zip) await sealZip(seal.zip, answer);
  return { sealed: true };
}

function manifestInFolder(dir: string): Buffer | null {
  const path = join(dir, KIT_MANIFEST_FILE);
  return existsSync(path) ? readFileSync(path) : null;
}

async function sealFolder(dir: string, answer: DocumentTimestamp): Promise<void> {
  await putSealFiles(async (path, data) => writeFileSync(join(dir, path), data), answer);
  rmSync(join(dir, KIT_SEAL_WAITING_FILE), { force: true });
}

const openZip = (path: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );

/** Each entry of a zip, with a way to read it, in the zip's order. */
async function* zipEntriesOf(
  zip: yauzl.ZipFile,
): AsyncGenerator<{ entry: yauzl.Entry; open(): Promise<Readable> }> {
  for (;;) {
    const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
      zip
        .once('entry', resolve)
        .once('end', () => resolve(null))
        .once('error', reject);
      zip.readEntry();
    });
    zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
    if (!entry) return;
    yield {
      entry,
      open: () =>
        new Promise((resolve, reject) =>
          zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
        ),
    };
  }
}

const bytesOf = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

async function manifestInZip(path: string): Promise<Buffer | null> {
  if (!existsSync(path)) return null;
  const zip = await openZip(path).catch(() => null);
  if (!zip) return null;
  try {
    for await (const { entry, open } of zipEntriesOf(zip))
      if (entry.fileName === KIT_MANIFEST_FILE) return await bytesOf(await open());
    return null;
  } finally {
    zip.close();
  }
}

/**
 * A zip cannot take files after it is closed: it is copied entry by entry into a new one, with the
 * seal's files added and the note left out, which then takes the zip's name.
 */
async function sealZip(path: string, answer: DocumentTimestamp): Promise<void> {
  const partial = `${path}.partial`;
  const from = await openZip(path);
  const to = new ZipFile();
  const written = new Promise<void>((resolve, reject) =>
    to.outputStream
      .on('error', reject)
      .pipe(createWriteStream(partial))
      .on('error', reject)
      .on('close', resolve),
  );
  try {
    for await (const { entry, open } of zipEntriesOf(from)) {
      if (entry.fileName === KIT_SEAL_WAITING_FILE) continue;
      const bytes = await bytesOf(await open());
      const stored = entry.fileName === KIT_MIMETYPE_FILE;
      to.addBuffer(bytes, entry.fileName, {
        compress: !stored && entry.compressionMethod !== 0,
        mtime: entry.getLastModDate(),
        ...(stored ? { forceDosTimestamp: true } : {}),
      });
    }
    await putSealFiles(async (name, data) => to.addBuffer(Buffer.from(data), name), answer);
    to.end();
    await written;
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    from.close();
  }
}
