import { forgetClosedCleanly, stampClosedCleanly, wholeCheckStillHolds } from './closed-cleanly';
import { hashKeyOf } from './keys';
import { loggedTimesOf } from './logged-times';
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DeskError } from '../errors';
import { MIGRATIONS } from './migrations';
import { said } from '../../protocol/said';
import type { Said } from '../../protocol/said';

export type QueueDb = Database.Database;

/**
 * Opens the queue database and brings it up to date. Every failure is a clear error that
 * leaves the file exactly as it was: a locked, corrupt or newer file is never "repaired".
 */
export function openQueueDb(
  path: string,
  options: { busyTimeoutMs?: number; targetVersion?: number } = {},
): QueueDb {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const existed = path !== ':memory:' && existsSync(path);
  let db: QueueDb | undefined;
  try {
    if (existed && statSync(path).size === 0) throw damaged(path, said('database.isEmpty'));
    const now = Date.now();
    const checkedAt = existed ? wholeCheckStillHolds(path, now) : null;
    db = new Database(path, { timeout: options.busyTimeoutMs ?? 5000 });
    // Version and integrity are checked before anything writes, so a newer or damaged file is left
    // byte for byte as it was. Every page is read unless the file is as this app closed it, within
    // a week of the last time every page was read.
    refuseNewer(db);
    if (existed && checkedAt === null) refuseDamaged(db, path);
    if (path !== ':memory:') {
      forgetClosedCleanly(path);
      openQueues.set(db, { path, checkedAt: checkedAt ?? now });
    }
    db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL survives any crash of the app or of this process without losing a commit;
    // only a power cut or OS crash may take back the last moments. FULL's fsync per commit made
    // queueing a dropped folder several times slower (bench/hash-small-files.ts).
    db.pragma('synchronous = NORMAL');
    // Checkpoints (which do fsync) every ~40 MB of log instead of every 4 MB, so queueing a big
    // folder is not interrupted by them; SQLite still checkpoints when the app closes.
    db.pragma('wal_autocheckpoint = 10000');
    db.pragma('foreign_keys = ON');
    // For migration 10, which fills the hash keys of rows written before it.
    db.function('evidence_hash_key', { deterministic: true }, (hex: unknown) => hashKeyOf(String(hex)));
    // For migration 11, which keeps the logged times of rows anchored before it.
    db.function('evidence_logged_certified_at', { deterministic: true }, (evidence: unknown) =>
      typeof evidence === 'string' ? loggedTimesOf(evidence).certifiedAt : null,
    );
    db.function('evidence_logged_tree_head_at', { deterministic: true }, (evidence: unknown) =>
      typeof evidence === 'string' ? loggedTimesOf(evidence).treeHeadAt : null,
    );
    migrate(db, options.targetVersion ?? MIGRATIONS.length);
    return db;
  } catch (error) {
    db?.close();
    throw explainOpenFailure(error, path);
  }
}

// Each open queue's file, as it was given, and when it was last read whole: its stamp at closing.
const openQueues = new WeakMap<QueueDb, { path: string; checkedAt: number }>();

/** Closes the queue; the last connection to close leaves it stamped as closed cleanly. */
export function closeQueueDb(db: QueueDb): void {
  if (!db.open) return;
  db.close();
  const opened = openQueues.get(db);
  if (opened) stampClosedCleanly(opened.path, opened.checkedAt);
}

function refuseNewer(db: QueueDb): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new DeskError('database_too_new', said('database.tooNew', { current, known: MIGRATIONS.length }));
  }
}

/** A structural check of every page (not the slower full integrity check): torn or overwritten pages fail it. */
function refuseDamaged(db: QueueDb, path: string): void {
  const findings = db.pragma('quick_check') as { quick_check: string }[];
  if (findings.length !== 1 || findings[0]?.quick_check !== 'ok')
    throw damaged(path, said('database.isDamaged'));
}

function damaged(path: string, what: Said): DeskError {
  return new DeskError('database_corrupt', said('database.damaged', { path, what }));
}

function migrate(db: QueueDb, target: number): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current >= target) return;
  // One transaction for all steps and the version, so a crash mid-migration leaves the old schema.
  db.transaction(() => {
    for (let version = current; version < target; version++) db.exec(MIGRATIONS[version] as string);
    db.pragma(`user_version = ${target}`);
  }).immediate();
}

function explainOpenFailure(error: unknown, path: string): DeskError {
  if (error instanceof DeskError) return error;
  const code = (error as { code?: string }).code ?? '';
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new DeskError('database_locked', said('database.locked', { path }));
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return damaged(path, said('database.notOurs'));
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_PERM') {
    return new DeskError('database_unavailable', said('database.notWritable', { path, code }));
  }
  return new DeskError(
    'database_unavailable',
    said('database.cannotOpen', { path, reason: (error as Error).message }),
  );
}
