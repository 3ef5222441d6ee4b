import type { SandboxDb } from './db';
import { sql } from './db';
import type { LogNodes } from './merkle';
import { MerkleLog } from './merkle';

/** The log's complete subtrees, in the sandbox's database. */
export function logNodesIn(db: SandboxDb): LogNodes {
  return {
    get: (level, position) =>
      sql(db, 'SELECT hash FROM log_nodes WHERE level = ? AND position = ?').pluck().get(level, position) as
        Buffer | undefined,
    put: (level, position, hash) =>
      void sql(db, 'INSERT INTO log_nodes (level, position, hash) VALUES (?, ?, ?)').run(
        level,
        position,
        hash,
      ),
  };
}

// Leaves read and appended at a time when a log anchored before its subtrees were kept is filled in.
const LEAVES_AT_A_TIME = 10_000;

/** Adds the subtrees of the leaves anchored before they were kept (once, for a log that has any). */
export function catchUpLogNodes(db: SandboxDb, leavesAtATime = LEAVES_AT_A_TIME): void {
  const kept = () =>
    ((sql(db, 'SELECT MAX(position) FROM log_nodes WHERE level = 0').pluck().get() as number | null) ?? -1) +
    1;
  const leaves = sql(
    db,
    'SELECT leaf_hash FROM certifications WHERE leaf_index >= ? ORDER BY leaf_index LIMIT ?',
  ).pluck();
  for (;;) {
    const filled = db
      .transaction(() => {
        const size = kept();
        const hashes = (leaves.all(size, leavesAtATime) as string[]).map((hex) => Buffer.from(hex, 'hex'));
        new MerkleLog(logNodesIn(db)).append(size, hashes);
        return hashes.length;
      })
      .immediate();
    if (filled < leavesAtATime) return;
  }
}
