import { isUtf8 } from 'node:buffer';
import type { Dirent, Stats } from 'node:fs';
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { PathProblem, PathProblemCode } from '../../protocol/views';
import type { Said, SaidKey, SaidValue } from '../../protocol/said';

// The same value protocol/said.ts builds; written out here because this module runs in the hash
// worker, which loads Node built-ins only.
const said = (key: SaidKey, values?: Record<string, SaidValue>): Said => (values ? { key, values } : { key });
/** LIMITS.pathDepth of protocol/limits.ts, written out for the same reason. */
const MOST_FOLDERS_DEEP = 128;

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
  /** The path as people read it (and as the register records it). */
  path: string;
  size: number;
  mtimeMs: number;
  /**
   * The path's exact bytes, when a name in it is not valid UTF-8 (a Latin-1 `café` from an old
   * system, a stray byte): the file is opened by these, and `path` shows those bytes as Latin-1.
   */
  rawPath?: Uint8Array;
}

/** A path to visit: what to show, and (for names that are not UTF-8) the bytes to open it by. */
interface Target {
  path: string;
  raw?: Buffer;
}

const fsPath = (target: Target): string | Buffer => target.raw ?? target.path;

export type { PathProblem, PathProblemCode };

/**
 * Turns dropped paths into regular files, expanding folders; every other path fails alone (the
 * problems are the generator's result). One file at a time, in the order people read a folder, so
 * a listing of a million is never held whole: its reader takes files as fast as they are hashed.
 * Synchronous on purpose: it runs in a worker (a folder of thousands is thousands of stat calls,
 * far cheaper blocking there than as thread-pool round trips), never on the main thread.
 */
export function* listFiles(paths: readonly string[]): Generator<FoundFile, PathProblem[]> {
  const problems: PathProblem[] = [];
  const listed = new Set<string>();
  for (const path of paths)
    yield* visit(resolveLossyPath(path) ?? { path }, new Set(), problems, null, false, listed);
  return problems;
}

/** The same files in chunks of at most `size`: a message each, not one per file. */
export function* inChunks(
  files: Generator<FoundFile, PathProblem[]>,
  size: number,
): Generator<FoundFile[], PathProblem[]> {
  let chunk: FoundFile[] = [];
  for (;;) {
    const next = files.next();
    if (next.done) {
      if (chunk.length) yield chunk;
      return next.value;
    }
    chunk.push(next.value);
    if (chunk.length >= size) {
      yield chunk;
      chunk = [];
    }
  }
}

/**
 * `chosen` is the real path of the folder the person chose (null for the path they chose itself): a
 * link inside it that leads out of it is reported, never followed, so a production cannot have a
 * file from elsewhere on this computer hashed in its name (docs/security.md).
 */
function* visit(
  target: Target,
  ancestors: ReadonlySet<string>,
  problems: PathProblem[],
  chosen: string | null,
  isLink: boolean,
  /** The real paths of the folders listed so far: links to one of them are not listed again. */
  listed: Set<string>,
): Generator<FoundFile, void> {
  const { path } = target;
  let info: Stats;
  try {
    if (isLink && chosen !== null) {
      const real = realpathSync(fsPath(target), { encoding: 'buffer' }).toString('latin1');
      if (real !== chosen && !real.startsWith(chosen + sep)) {
        problems.push({
          path,
          code: 'outside_folder',
          said: said('file.linkOutside', { name: basename(path) }),
        });
        return;
      }
    }
    info = statSync(fsPath(target));
  } catch (error) {
    problems.push(problemFromError(path, error as NodeJS.ErrnoException));
    return;
  }
  if (info.isFile()) {
    const found: FoundFile = { path, size: info.size, mtimeMs: info.mtimeMs };
    yield target.raw ? { ...found, rawPath: target.raw } : found;
    return;
  }
  if (!info.isDirectory()) {
    problems.push({
      path,
      code: 'not_regular_file',
      said: said('file.notADocument', { kind: kindOf(info) }),
    });
    return;
  }
  if (ancestors.size >= MOST_FOLDERS_DEEP) {
    problems.push({ path, code: 'too_deep', said: said('file.tooDeep', { name: basename(path) }) });
    return;
  }
  let real: string;
  let entries: Dirent<Buffer>[];
  try {
    // Bytes, not strings: a name that is not UTF-8 would otherwise be mangled and "not exist".
    real = realpathSync(fsPath(target), { encoding: 'buffer' }).toString('latin1');
    entries = readdirSync(fsPath(target), { encoding: 'buffer', withFileTypes: true });
  } catch (error) {
    problems.push(problemFromError(path, error as NodeJS.ErrnoException));
    return;
  }
  if (ancestors.has(real)) {
    problems.push({
      path,
      code: 'folder_loop',
      said: said('file.folderLoop'),
    });
    return;
  }
  // Links to one folder from many places would list it again each time (two links a level, 40
  // levels: 2^40 listings): a folder reached by a link is listed once.
  if (isLink && listed.has(real)) {
    problems.push({
      path,
      code: 'folder_loop',
      said: said('file.linkedAgain', { name: basename(path) }),
    });
    return;
  }
  listed.add(real);
  const inside = new Set(ancestors).add(real);
  // The folder's path as path.join writes it, with its separator, once: joining it again for each
  // of 10,000 names was a third of listing them.
  const folder = join(path, '_').slice(0, -1);
  const within = chosen ?? real;
  for (const child of entries
    .map((entry) => ({ ...childOf(target, folder, entry.name), link: entry.isSymbolicLink() }))
    .sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (!isClutter(basename(child.path))) yield* visit(child, inside, problems, within, child.link, listed);
  }
}

/** A name in a folder: `folder` is the folder's path ending in its separator. */
function childOf(parent: Target, folder: string, name: Buffer): Target {
  if (!parent.raw && isUtf8(name)) return { path: folder + name.toString('utf8') };
  const parentBytes = parent.raw ?? Buffer.from(parent.path);
  return {
    path: folder + readable(name),
    raw: Buffer.concat([parentBytes, Buffer.from(sep), name]),
  };
}

/** A name's bytes as people can read them: UTF-8 when they are, else Latin-1 (so `caf\xe9` reads café). */
const readable = (name: Buffer): string => (isUtf8(name) ? name.toString('utf8') : name.toString('latin1'));

/**
 * A path given as text whose name was not UTF-8 arrives with U+FFFD where its bytes were (Node
 * decodes arguments that way). Finds the one entry of its folder whose name decodes to it, if any.
 */
export function resolveLossyPath(path: string): Target | undefined {
  if (!path.includes('\uFFFD')) return undefined;
  try {
    statSync(path);
    return undefined;
  } catch {
    // Not there as written: look for the bytes it was decoded from.
  }
  const folder = dirname(path);
  const wanted = basename(path);
  let names: Buffer[];
  try {
    names = readdirSync(folder, { encoding: 'buffer' });
  } catch {
    return undefined;
  }
  const matches = names.filter((name) => name.toString('utf8') === wanted);
  if (matches.length !== 1) return undefined;
  const name = matches[0] as Buffer;
  return {
    path: join(folder, readable(name)),
    raw: Buffer.concat([Buffer.from(folder), Buffer.from(sep), name]),
  };
}

function kindOf(info: Stats): Said {
  if (info.isFIFO()) return said('file.kind.fifo');
  if (info.isSocket()) return said('file.kind.socket');
  if (info.isCharacterDevice() || info.isBlockDevice()) return said('file.kind.device');
  return said('file.kind.other');
}

function problemFromError(path: string, error: NodeJS.ErrnoException): PathProblem {
  switch (error.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return {
        path,
        code: 'not_found',
        said: said('file.missing', { name: basename(path) }),
      };
    case 'EACCES':
    case 'EPERM':
      return {
        path,
        code: 'permission_denied',
        said: said('file.noPermissionFor', { name: basename(path) }),
      };
    case 'ELOOP':
      return {
        path,
        code: 'folder_loop',
        said: said('file.linkLoop', { name: basename(path) }),
      };
    default:
      return {
        path,
        code: 'unreadable',
        said: said('file.couldNotRead', { path: basename(path), code: error.code ?? error.message }),
      };
  }
}
