import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { DeskError } from '../errors';
import type { QueueDb } from './database';
import type { LocalState } from './states';
import { REMOVABLE_STATES, assertTransition } from './states';

export type Verification = 'verified' | 'invalid' | 'unverifiable';

export interface NewCertification {
  profileId: string;
  filePath: string;
  fileName: string;
  fileSize: number;
  assetHash: string;
  assetType: string;
  sourceSystem: string;
  eventType: string;
}

export interface CertificationRow extends NewCertification {
  id: number;
  requestId: string;
  state: LocalState;
  attempts: number;
  nextAttemptAt: number | null;
  serviceId: string | null;
  serviceState: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  rawResponse: string | null;
  evidence: string | null;
  verification: Verification | null;
  verificationMessage: string | null;
  createdAt: number;
  updatedAt: number;
  anchoredAt: number | null;
}

export interface HistoryEntry {
  state: LocalState;
  at: number;
  note: string | null;
}

export type StateCounts = Record<LocalState, number>;

export interface LeaseHolder {
  /** Unique per engine instance. */
  holder: string;
  pid: number;
  host: string;
}

export interface ListQuery {
  profileId: string;
  states?: LocalState[];
  /** Matches file names (case-insensitive, anywhere) and hashes (from the start). */
  search?: string;
  limit: number;
  offset?: number;
}

const COLUMNS = `id, profile_id AS profileId, request_id AS requestId, file_path AS filePath, file_name AS fileName,
  file_size AS fileSize, asset_hash AS assetHash, asset_type AS assetType, source_system AS sourceSystem,
  event_type AS eventType, state, attempts, next_attempt_at AS nextAttemptAt, service_id AS serviceId,
  service_state AS serviceState, error_code AS errorCode, error_message AS errorMessage, raw_response AS rawResponse,
  evidence, verification, verification_message AS verificationMessage, created_at AS createdAt,
  updated_at AS updatedAt, anchored_at AS anchoredAt`;

/**
 * The queue, with intention-named operations. Each is one transaction that changes the row
 * and appends to its timeline, so the table is always the whole truth after a crash.
 */
export class CertificationStore {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: QueueDb) {}

  /** Writes rows the moment their hashes are known, each with a fresh X-Request-Id for life. */
  enqueue(items: readonly NewCertification[], now = Date.now()): CertificationRow[] {
    return this.db.transaction(() =>
      items.map((item): CertificationRow => {
        const requestId = randomUUID();
        const { lastInsertRowid } = this.sql(
          `INSERT INTO certifications (profile_id, request_id, file_path, file_name, file_size, asset_hash, asset_type,
           source_system, event_type, state, next_attempt_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?)`,
        ).run(
          item.profileId,
          requestId,
          item.filePath,
          item.fileName,
          item.fileSize,
          item.assetHash,
          item.assetType,
          item.sourceSystem,
          item.eventType,
          now,
          now,
          now,
        );
        const id = Number(lastInsertRowid);
        // Every column of a new row is known here: no need to read it back.
        return {
          ...item,
          id,
          requestId,
          state: 'queued',
          attempts: 0,
          nextAttemptAt: now,
          serviceId: null,
          serviceState: null,
          errorCode: null,
          errorMessage: null,
          rawResponse: null,
          evidence: null,
          verification: null,
          verificationMessage: null,
          createdAt: now,
          updatedAt: now,
          anchoredAt: null,
        };
      }),
    )();
  }

  /** Takes up to `limit` due queued rows of a profile and marks them as being sent. */
  claimDue(profileId: string, now: number, limit: number): CertificationRow[] {
    assertTransition('queued', 'submitting');
    return this.db
      .transaction(() => {
        const ids = this.sql(
          `SELECT id FROM certifications WHERE profile_id = ? AND state = 'queued' AND next_attempt_at <= ?
         ORDER BY next_attempt_at, id LIMIT ?`,
        )
          .pluck()
          .all(profileId, now, limit) as number[];
        for (const id of ids) {
          this.sql(`UPDATE certifications SET state = 'submitting', updated_at = ? WHERE id = ?`).run(
            now,
            id,
          );
          this.appendHistory(id, 'submitting', now, null);
        }
        return ids.map((id) => this.require(id));
      })
      .immediate();
  }

  /** The service accepted it: remember its id and state, and when to look again. */
  markPending(
    id: number,
    serviceId: string,
    serviceState: string | null,
    rawResponse: string,
    nextPollAt: number,
    now = Date.now(),
  ): void {
    this.transition(id, 'pending', now, `accepted as ${serviceId}`, {
      service_id: serviceId,
      service_state: serviceState,
      raw_response: rawResponse,
      next_attempt_at: nextPollAt,
      attempts: 0,
      error_code: null,
      error_message: null,
    });
  }

  /**
   * Sending failed in a way worth retrying: back to the queue, same request id, later. A lost
   * connection rather than an answer from the service does not count towards giving up.
   */
  requeue(
    id: number,
    error: { code: string; message: string },
    nextAttemptAt: number,
    now = Date.now(),
    countsAsAttempt = true,
  ): void {
    const row = this.require(id);
    this.transition(id, 'queued', now, error.message, {
      attempts: row.attempts + (countsAsAttempt ? 1 : 0),
      next_attempt_at: nextAttemptAt,
      error_code: error.code,
      error_message: error.message,
    });
  }

  markFailed(
    id: number,
    error: { code: string; message: string },
    rawResponse: string | null,
    now = Date.now(),
  ): void {
    const fields: Record<string, unknown> = {
      error_code: error.code,
      error_message: error.message,
      next_attempt_at: null,
    };
    if (rawResponse !== null) fields.raw_response = rawResponse;
    this.transition(id, 'failed', now, error.message, fields);
  }

  /** Pending rows of a profile whose next look at the service is due. */
  duePolls(profileId: string, now: number, limit: number): CertificationRow[] {
    return this.sql(
      `SELECT ${COLUMNS} FROM certifications WHERE profile_id = ? AND state = 'pending' AND next_attempt_at <= ?
       ORDER BY next_attempt_at, id LIMIT ?`,
    ).all(profileId, now, limit) as CertificationRow[];
  }

  /** A look at the service found it still on its way: note what was seen and when to look again. */
  recordPoll(
    id: number,
    serviceState: string | null,
    rawResponse: string | null,
    nextPollAt: number,
    now = Date.now(),
  ): void {
    const row = this.require(id);
    this.sql(
      `UPDATE certifications SET service_state = COALESCE(?, service_state), raw_response = COALESCE(?, raw_response),
       attempts = attempts + 1, next_attempt_at = ?, updated_at = ? WHERE id = ? AND state = 'pending'`,
    ).run(serviceState, rawResponse, nextPollAt, now, id);
    if (serviceState !== null && serviceState !== row.serviceState)
      this.appendHistory(id, 'pending', now, `service reports ${serviceState}`);
  }

  markAnchored(
    id: number,
    outcome: {
      serviceState: string;
      rawResponse: string;
      evidence: string | null;
      verification: Verification;
      verificationMessage: string;
    },
    now = Date.now(),
  ): void {
    this.transition(id, 'anchored', now, outcome.verificationMessage, {
      service_state: outcome.serviceState,
      raw_response: outcome.rawResponse,
      evidence: outcome.evidence,
      verification: outcome.verification,
      verification_message: outcome.verificationMessage,
      anchored_at: now,
      next_attempt_at: null,
    });
  }

  /**
   * Sends a failed certification again. If the service had accepted it, the retry is a new
   * certification there and gets a new X-Request-Id; otherwise the old one is kept.
   */
  retry(id: number, now = Date.now()): void {
    const row = this.require(id);
    const fields: Record<string, unknown> = {
      next_attempt_at: now,
      attempts: 0,
      error_code: null,
      error_message: null,
    };
    if (row.serviceId !== null)
      Object.assign(fields, { request_id: randomUUID(), service_id: null, service_state: null });
    this.transition(id, 'queued', now, 'sent again on request', fields);
  }

  /** Removes a certification that was never sent, or that failed for good. */
  remove(id: number): void {
    const row = this.require(id);
    if (!REMOVABLE_STATES.includes(row.state) || (row.state === 'queued' && row.serviceId !== null)) {
      throw new DeskError(
        'not_removable',
        `${row.fileName} has already been sent to the service and cannot be removed.`,
      );
    }
    this.sql('DELETE FROM certifications WHERE id = ?').run(id);
  }

  /** After a crash, requests that were on the wire are sent again, with the same request id. */
  resumeInterrupted(now = Date.now()): number {
    assertTransition('submitting', 'queued');
    return this.db.transaction(() => {
      const ids = this.sql(`SELECT id FROM certifications WHERE state = 'submitting'`)
        .pluck()
        .all() as number[];
      for (const id of ids) {
        this.sql(
          `UPDATE certifications SET state = 'queued', next_attempt_at = ?, updated_at = ? WHERE id = ?`,
        ).run(now, now, id);
        this.appendHistory(id, 'queued', now, 'resumed after the app stopped while sending');
      }
      return ids.length;
    })();
  }

  /** While the service is unreachable, nothing of a profile is due before the next probe. */
  deferDue(profileId: string, until: number): void {
    this.sql(
      `UPDATE certifications SET next_attempt_at = ? WHERE profile_id = ? AND state IN ('queued', 'pending') AND next_attempt_at < ?`,
    ).run(until, profileId, until);
  }

  /** Makes every waiting row of a profile due now ("try now"). */
  makeDueNow(profileId: string, now = Date.now()): void {
    this.sql(
      `UPDATE certifications SET next_attempt_at = ? WHERE profile_id = ? AND state IN ('queued', 'pending') AND next_attempt_at > ?`,
    ).run(now, profileId, now);
  }

  /** When the earliest queued or pending row of a profile becomes due, if any. */
  nextDueAt(profileId: string): number | null {
    return (
      (this.sql(
        `SELECT MIN(next_attempt_at) FROM certifications WHERE profile_id = ? AND state IN ('queued', 'pending')`,
      )
        .pluck()
        .get(profileId) as number | null) ?? null
    );
  }

  counts(profileId: string): StateCounts {
    const counts: StateCounts = { queued: 0, submitting: 0, pending: 0, anchored: 0, failed: 0 };
    const rows = this.sql(
      'SELECT state, COUNT(*) AS n FROM certifications WHERE profile_id = ? GROUP BY state',
    ).all(profileId) as { state: LocalState; n: number }[];
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  list(query: ListQuery): CertificationRow[] {
    const { where, params } = whereOf(query);
    return this.db
      .prepare(`SELECT ${COLUMNS} FROM certifications WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...params, query.limit, query.offset ?? 0) as CertificationRow[];
  }

  /** How many rows `list` would page through for the same filter and search. */
  count(query: Omit<ListQuery, 'limit' | 'offset'>): number {
    const { where, params } = whereOf(query);
    return this.db
      .prepare(`SELECT COUNT(*) FROM certifications WHERE ${where}`)
      .pluck()
      .get(...params) as number;
  }

  findByHash(profileId: string, assetHash: string): CertificationRow[] {
    return this.sql(
      `SELECT ${COLUMNS} FROM certifications WHERE profile_id = ? AND asset_hash = ? ORDER BY id`,
    ).all(profileId, assetHash.toLowerCase()) as CertificationRow[];
  }

  get(id: number): CertificationRow | undefined {
    return this.sql(`SELECT ${COLUMNS} FROM certifications WHERE id = ?`).get(id) as
      CertificationRow | undefined;
  }

  /** The row's timeline: queued when it was created (no history row of its own), then every later state. */
  history(id: number): HistoryEntry[] {
    const row = this.require(id);
    const later = this.sql(
      'SELECT state, at, note FROM state_history WHERE certification_id = ? ORDER BY at, rowid',
    ).all(id) as HistoryEntry[];
    return [{ state: 'queued', at: row.createdAt, note: null }, ...later];
  }

  /**
   * Takes or renews the right to send this queue. Granted when nobody holds it, when it is ours,
   * when it lapsed, or when its holder is a process on this machine that no longer exists.
   */
  acquireSyncLease(me: LeaseHolder, now: number, ttlMs: number, isAlive: (pid: number) => boolean): boolean {
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
          `INSERT INTO sync_lease (id, holder, pid, host, expires_at) VALUES (1, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET holder = excluded.holder, pid = excluded.pid, host = excluded.host, expires_at = excluded.expires_at`,
        ).run(me.holder, me.pid, me.host, now + ttlMs);
        return true;
      })
      .immediate();
  }

  releaseSyncLease(holder: string): void {
    this.sql('DELETE FROM sync_lease WHERE holder = ?').run(holder);
  }

  getSetting(key: string): string | undefined {
    return this.sql('SELECT value FROM settings WHERE key = ?').pluck().get(key) as string | undefined;
  }

  setSetting(key: string, value: string): void {
    this.sql(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  private require(id: number): CertificationRow {
    const row = this.get(id);
    if (!row) throw new DeskError('not_found', `There is no certification ${id} in the queue.`);
    return row;
  }

  private transition(
    id: number,
    to: LocalState,
    now: number,
    note: string | null,
    fields: Record<string, unknown>,
  ): void {
    this.db
      .transaction(() => {
        const row = this.require(id);
        assertTransition(row.state, to);
        const names = Object.keys(fields);
        this.sql(
          `UPDATE certifications SET state = ?, updated_at = ?${names.map((n) => `, ${n} = ?`).join('')} WHERE id = ?`,
        ).run(to, now, ...names.map((n) => fields[n]), id);
        this.appendHistory(id, to, now, note);
      })
      .immediate();
  }

  private appendHistory(id: number, state: LocalState, at: number, note: string | null): void {
    this.sql('INSERT INTO state_history (certification_id, state, at, note) VALUES (?, ?, ?, ?)').run(
      id,
      state,
      at,
      note,
    );
  }

  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }
}

function whereOf(query: Omit<ListQuery, 'limit' | 'offset'>): { where: string; params: unknown[] } {
  const where = ['profile_id = ?'];
  const params: unknown[] = [query.profileId];
  if (query.states?.length) {
    where.push(`state IN (${query.states.map(() => '?').join(', ')})`);
    params.push(...query.states);
  }
  if (query.search) {
    where.push(`(file_name LIKE ? ESCAPE '\\' OR asset_hash LIKE ? ESCAPE '\\')`);
    const escaped = query.search.replace(/[\\%_]/g, (c) => `\\${c}`);
    params.push(`%${escaped}%`, `${escaped.toLowerCase()}%`);
  }
  return { where: where.join(' AND '), params };
}
