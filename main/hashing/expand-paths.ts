import type { Stats } from 'node:fs';
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { PathProblem, PathProblemCode } from '../../protocol/views';

/**
 * Operating-system clutter that is never certified when a folder is expanded (a file named
 * explicitly is always taken): Finder and Explorer metadata, thumbnails caches, trash folders.
 */
export const SKIPPED_NAMES: ReadonlySet<string> = new Set([
  '.DS_Store',
  'Thumbs.db',
  'ehthumbs.db',
  'desktop.ini',
  '.Spotlight-V100',
  '.Trashes',
  '.fseventsd',
  '.TemporaryItems',
  '$RECYCLE.BIN',
  'System Volume Information',
]);

export function isClutter(name: string): boolean {
  // "._name" files are AppleDouble resource forks that macOS writes beside copies.
  return SKIPPED_NAMES.has(name) || name.startsWith('._');
}

/** The error code a hashing worker reports for a path that is no longer a regular file when opened. */
export const NOT_REGULAR = 'ENOTREGULAR';

export interface FoundFile {
  path: string;
  size: number;
}

export type { PathProblem, PathProblemCode };

export interface Expansion {
  files: FoundFile[];
  problems: PathProblem[];
}

/**
 * Turns dropped paths into regular files, expanding folders; every other path fails alone.
 * Synchronous on purpose: it runs in a hashing worker (a folder of thousands is thousands of
 * stat calls, far cheaper blocking there than as thread-pool round trips), never on the main thread.
 */
export function expandPathsSync(
  paths: readonly string[],
  onFiles?: (files: FoundFile[]) => void,
  chunk = 1024,
): Expansion {
  const out: Expansion = { files: [], problems: [] };
  // Files found so far are handed out in chunks, so hashing starts while a big folder is still listed.
  let handedOut = 0;
  const handOut = (force: boolean) => {
    if (onFiles && (force || out.files.length - handedOut >= chunk) && out.files.length > handedOut) {
      onFiles(out.files.slice(handedOut));
      handedOut = out.files.length;
    }
  };
  for (const path of paths) visit(path, new Set(), out, handOut);
  handOut(true);
  return out;
}

function visit(
  path: string,
  ancestors: ReadonlySet<string>,
  out: Expansion,
  handOut: (force: boolean) => void,
): void {
  let info: Stats;
  try {
    info = statSync(path);
  } catch (error) {
    out.problems.push(problemFromError(path, error as NodeJS.ErrnoException));
    return;
  }
  if (info.isFile()) {
    out.files.push({ path, size: info.size });
    handOut(false);
    return;
  }
  if (!info.isDirectory()) {
    out.problems.push({
      path,
      code: 'not_regular_file',
      message: `This is ${kindOf(info)}, not a document, so it cannot be certified.`,
    });
    return;
  }
  let real: string;
  let entries: string[];
  try {
    real = realpathSync(path);
    entries = readdirSync(path);
  } catch (error) {
    out.problems.push(problemFromError(path, error as NodeJS.ErrnoException));
    return;
  }
  if (ancestors.has(real)) {
    out.problems.push({
      path,
      code: 'folder_loop',
      message: 'This folder contains a link back to itself; it was not expanded again.',
    });
    return;
  }
  const inside = new Set(ancestors).add(real);
  for (const name of entries.sort()) {
    if (!isClutter(name)) visit(join(path, name), inside, out, handOut);
  }
}

function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'a pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function problemFromError(path: string, error: NodeJS.ErrnoException): PathProblem {
  switch (error.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return {
        path,
        code: 'not_found',
        message: `${basename(path)} does not exist (it may have been moved or deleted).`,
      };
    case 'EACCES':
    case 'EPERM':
      return {
        path,
        code: 'permission_denied',
        message: `You do not have permission to read ${basename(path)}.`,
      };
    case 'ELOOP':
      return {
        path,
        code: 'folder_loop',
        message: `${basename(path)} is a link that points back to itself.`,
      };
    default:
      return {
        path,
        code: 'unreadable',
        message: `${basename(path)} could not be read (${error.code ?? error.message}).`,
      };
  }
}
