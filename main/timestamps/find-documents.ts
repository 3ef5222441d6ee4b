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
async function hashesOf(path: string): Promise<{ sha256: string; sha512: Uint8Array } | null> {
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

/** Every file under the folders given, by size: a document is looked for among files of its size only. */
async function filesBySize(folders: readonly string[]): Promise<Map<number, string[]>> {
  const bySize = new Map<number, string[]>();
  for (const folder of folders) {
    let entries;
    try {
      entries = await readdir(folder, { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      const size = await sizeOf(path);
      if (size !== null) bySize.set(size, [...(bySize.get(size) ?? []), path]);
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
  for (const document of documents) {
    const known = [document.filePath, ...document.watchedPaths];
    let sha512: Uint8Array | null = null;
    for (const path of known) {
      sha512 = await sameDocument(path, document);
      if (sha512) break;
    }
    if (!sha512 && folders.length) {
      given ??= await filesBySize(folders);
      for (const path of given.get(document.fileSize) ?? []) {
        sha512 = await sameDocument(path, document);
        if (sha512) break;
      }
    }
    if (sha512) found.push({ certificationId: document.certificationId, sha512 });
    else missing.push(document);
  }
  return { found, missing };
}

/** The file's SHA-512 when it is the certified document (its size, then its SHA-256), else null. */
async function sameDocument(path: string, document: DocumentToRenew): Promise<Uint8Array | null> {
  if ((await sizeOf(path)) !== document.fileSize) return null;
  const hashes = await hashesOf(path);
  return hashes?.sha256 === document.assetHash ? hashes.sha512 : null;
}
