import type { Look } from '../store';

/** A file found in a watched folder: its path relative to the folder, and what it looked like. */
export interface Listed extends Look {
  path: string;
}

/**
 * What changed in a folder since it was last watched, from a listing and what was seen then:
 * files new or changed (size or modification time) are to be checked; files seen but no longer
 * there are gone. Unchanged files are not read again, so a restart over 100,000 files costs a
 * listing, not 100,000 hashes.
 */
export function changedSince(
  listed: Iterable<Listed>,
  seen: ReadonlyMap<string, Look>,
): { changed: Listed[]; gone: string[] } {
  const changed: Listed[] = [];
  const present = new Set<string>();
  for (const file of listed) {
    present.add(file.path);
    const before = seen.get(file.path);
    if (!before || before.size !== file.size || before.mtimeMs !== file.mtimeMs) changed.push(file);
  }
  const gone = [...seen.keys()].filter((path) => !present.has(path));
  return { changed, gone };
}
