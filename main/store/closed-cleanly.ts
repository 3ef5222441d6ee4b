import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

// Whether the queue file is still exactly as this app left it when it last closed it: its size,
// modification time and file number, written beside it when the last connection closes. Such a
// file passed the page-by-page check when it was opened before, and only SQLite has written to it
// since, so it is not read whole again: at a million certifications that is 5 GB, 10 to 25 s
// before every start of the app or the command line. Anything else (a crash, a copy, another
// program, a file put back from a backup) has the whole file checked again.

const stampOf = (path: string) => `${path}-closed`;

function identityOf(path: string): string {
  const { size, mtimeNs, ino } = statSync(path, { bigint: true });
  return JSON.stringify({ size: String(size), mtimeNs: String(mtimeNs), ino: String(ino) });
}

// The log of writes SQLite removes when the last connection closes: still there, one did not
// close (it crashed, or it is open now).
const logOf = (path: string) => `${path}-wal`;

/** The file is as this app left it when it last closed it cleanly. */
export function closedCleanly(path: string): boolean {
  try {
    return !existsSync(logOf(path)) && readFileSync(stampOf(path), 'utf8') === identityOf(path);
  } catch {
    return false;
  }
}

/** Forgotten before anything writes: a crash from here on leaves no stamp. */
export function forgetClosedCleanly(path: string): void {
  try {
    rmSync(stampOf(path), { force: true });
  } catch {
    // Left behind, it no longer matches once the file is written to (and never while the log is there).
  }
}

/** After a connection closed: the last one (SQLite removed the log) stamps the file as it left it. */
export function stampClosedCleanly(path: string): void {
  try {
    if (!existsSync(logOf(path))) writeFileSync(stampOf(path), identityOf(path));
  } catch {
    // No stamp: the next start checks the whole file, as it always may.
  }
}
