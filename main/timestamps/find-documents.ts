import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentToRenew, FoundDocument } from '../store/hash-tree-renewals';

/*
 * A hash-tree renewal needs each document's bytes again. A document is looked for where it was
 * certified, where a watched folder last saw its content, and in the folders given; a file counts
 * only when its SHA-256 is the certified one (a file of the same name with other content is not it).
 */

/** Both hashes of a file, in one read. */
type Hashes = { sha256: string; sha512: Uint8Array };

async function hashesOf(path: string): Promise<Hashes | null> {
  const sha256 = createHash('sha256');
  const sha512 = createHash('sha512');
  try {
    for await (const chunk of createReadStream(path)) {
      sha256.update(chunk as Buffer);
      sha512.update(chunk as Buffer);
    }
  } catch {
    return null;
  }
  return { sha256: sha256.digest('hex'), sha512: new Uint8Array(sha512.digest()) };
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    const found = await stat(path);
    return found.isFile() ? found.size : null;
  } catch {
    return null;
  }
}

/**
 * Every file under the folders given, by size: a document is looked for among files of its size only.
 * A folder that cannot be read is passed over, not the rest with it; links are not followed.
 */
async function filesBySize(folders: readonly string[]): Promise<Map<number, string[]>> {
  const bySize = new Map<number, string[]>();
  const pending = [...folders];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) pending.push(path);
      if (!entry.isFile()) continue;
      const size = await sizeOf(path);
      if (size === null) continue;
      const same = bySize.get(size);
      if (same) same.push(path);
      else bySize.set(size, [path]);
    }
  }
  return bySize;
}

/** Looks for each document; what was found comes with its SHA-512, what was not is listed. */
export async function findDocuments(
  documents: readonly DocumentToRenew[],
  folders: readonly string[],
): Promise<{ found: FoundDocument[]; missing: DocumentToRenew[] }> {
  const found: FoundDocument[] = [];
  const missing: DocumentToRenew[] = [];
  let given: Map<number, string[]> | undefined;
  const hashed = new Map<string, Promise<Hashes | null>>();
  for (const document of documents) {
    const known = [document.filePath, ...document.watchedPaths];
    let sha512: Uint8Array | null = null;
    for (const path of known) {
      sha512 = await sameDocument(path, document, hashed);
      if (sha512) break;
    }
    if (!sha512 && folders.length) {
      given ??= await filesBySize(folders);
      for (const path of given.get(document.fileSize) ?? []) {
        sha512 = await sameDocument(path, document, hashed);
        if (sha512) break;
      }
    }
    if (sha512) found.push({ certificationId: document.certificationId, sha512 });
    else missing.push(document);
  }
  return { found, missing };
}

/** The file's SHA-512 when it is the certified document (its size, then its SHA-256), else null. */
async function sameDocument(
  path: string,
  document: DocumentToRenew,
  hashed: Map<string, Promise<Hashes | null>>,
): Promise<Uint8Array | null> {
  if ((await sizeOf(path)) !== document.fileSize) return null;
  // A file of a common size is read once, whichever documents of that size it is compared with.
  let hashes = hashed.get(path);
  if (!hashes) hashed.set(path, (hashes = hashesOf(path)));
  const read = await hashes;
  return read?.sha256 === document.assetHash ? read.sha512 : null;
}
