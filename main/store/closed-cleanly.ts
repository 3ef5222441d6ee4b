import { lstatSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';

// Whether the queue file is still exactly as this app left it when it last closed it: its size,
// modification time and file number, written beside it when the last connection closes, with
// when the whole file was last checked. Such a file passed that check and only SQLite has written
// to it since, so it is not read whole again at every start: at a million certifications that is
// 5 GB, 10 to 25 s before each start of the app or the command line. Anything else (a crash, a
// copy, another program, a file put back from a backup) has the whole file checked again, and so
// does a week gone by since the last check: damage none of the three can see (a disk that rots a
// page) is found within a week, not never.

// How long a read of the whole file is trusted for a file closed cleanly since.
const WHOLE_CHECK_LASTS_MS = 7 * 24 * 60 * 60 * 1000;

const stampOf = (path: string) => `${path}-closed`;

function identityOf(path: string): { size: string; mtimeNs: string; ino: string } {
  const { size, mtimeNs, ino } = statSync(path, { bigint: true });
  return { size: String(size), mtimeNs: String(mtimeNs), ino: String(ino) };
}

// SQLite's log of writes, which it removes when the last connection closes: still there, one did
// not close (it crashed, or it is open now). It lies beside the file a link leads to. A log that
// cannot be looked at counts as there.
function walBeside(path: string): boolean {
  try {
    return lstatSync(`${realpathSync(path)}-wal`, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

/**
 * When the whole file was last read and found sound, while that still holds: the file is as this
 * app left it when it last closed it cleanly, within a week of that read. Otherwise null (read it
 * whole now). Asked before the file is opened: the first read of a file in WAL mode puts its log
 * beside it.
 */
export function wholeCheckStillHolds(path: string, now: number): number | null {
  try {
    if (walBeside(path)) return null;
    const stamp = JSON.parse(readFileSync(stampOf(path), 'utf8')) as Record<string, unknown>;
    const file = identityOf(path);
    const same = stamp.size === file.size && stamp.mtimeNs === file.mtimeNs && stamp.ino === file.ino;
    const { checkedAt } = stamp;
    return same &&
      typeof checkedAt === 'number' &&
      now >= checkedAt &&
      now - checkedAt <= WHOLE_CHECK_LASTS_MS
      ? checkedAt
      : null;
  } catch {
    return null;
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
export function stampClosedCleanly(path: string, checkedAt: number): void {
  try {
    if (!walBeside(path)) writeFileSync(stampOf(path), JSON.stringify({ ...identityOf(path), checkedAt }));
  } catch {
    // No stamp: the next start checks the whole file, as it always may.
  }
}
