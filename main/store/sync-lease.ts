import type { Sender } from '../../protocol/views';
import type { QueueDb } from './database';
import { statementCache } from './statements';

export interface LeaseHolder {
  /** Unique per sync engine instance. */
  holder: string;
  pid: number;
  host: string;
  /** The app or the command line: the other one says who is sending. */
  sender: Sender;
}

/** The right to send a queue, held by one process at a time (the app and the CLI may both be open). */
export class SyncLeaseStore {
  private readonly sql;

  constructor(private readonly db: QueueDb) {
    this.sql = statementCache(db);
  }

  /**
   * Takes or renews the lease. Granted when nobody holds it, when it is ours, when it lapsed, or
   * when its holder is a process on this machine that no longer exists.
   */
  acquire(me: LeaseHolder, now: number, ttlMs: number, isAlive: (pid: number) => boolean): boolean {
    return this.db
      .transaction(() => {
        const current = this.sql(
          'SELECT holder, pid, host, expires_at AS expiresAt FROM sync_lease WHERE id = 1',
        ).get() as (LeaseHolder & { expiresAt: number }) | undefined;
        const free =
          !current ||
          current.holder === me.holder ||
          current.expiresAt < now ||
          (current.host === me.host && !isAlive(current.pid));
        if (!free) return false;
        this.sql(
          `INSERT INTO sync_lease (id, holder, pid, host, sender, expires_at) VALUES (1, ?, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET holder = excluded.holder, pid = excluded.pid, host = excluded.host,
             sender = excluded.sender, expires_at = excluded.expires_at`,
        ).run(me.holder, me.pid, me.host, me.sender, now + ttlMs);
        return true;
      })
      .immediate();
  }

  /** Who holds the lease now (whether or not it lapsed), or null when nobody does. */
  sender(): Sender | null {
    return (
      (this.sql('SELECT sender FROM sync_lease WHERE id = 1').pluck().get() as Sender | undefined) ?? null
    );
  }

  release(holder: string): void {
    this.sql('DELETE FROM sync_lease WHERE holder = ?').run(holder);
  }
}
