import type { Said } from '../../protocol/said';
import { readStoredSaid, storedSaid } from '../../protocol/said';
import type { QueueDb } from './database';
import { statementCache } from './statements';

/** A seal that waits for its authority: a kit's, saved complete but for it, or a certificate's saved alone. */
export interface KitSeal {
  id: number;
  profileId: string;
  tsaUrl: string;
  /** Where the kit was saved: a folder, a zip, or both. */
  dir: string | null;
  zip: string | null;
  /** The SHA-256 of the kit's manifest as saved: the seal is asked over exactly these bytes. */
  manifestSha256: string | null;
  /** For a certificate saved on its own instead: its certification, and where it is to be written. */
  certificationId: number | null;
  file: string | null;
  state: 'waiting' | 'sealed' | 'given_up';
  /** Why it waits (or why it was given up). */
  problem: Said | null;
  attempts: number;
  dueAt: number | null;
  createdAt: number;
}

interface KitSealRow {
  id: number;
  profile_id: string;
  tsa_url: string;
  dir: string | null;
  zip: string | null;
  manifest_sha256: string | null;
  certification_id: number | null;
  file: string | null;
  state: KitSeal['state'];
  problem: string | null;
  attempts: number;
  due_at: number | null;
  created_at: number;
}

const seal = (row: KitSealRow): KitSeal => ({
  id: row.id,
  profileId: row.profile_id,
  tsaUrl: row.tsa_url,
  dir: row.dir,
  zip: row.zip,
  manifestSha256: row.manifest_sha256,
  certificationId: row.certification_id,
  file: row.file,
  state: row.state,
  problem: readStoredSaid(row.problem),
  attempts: row.attempts,
  dueAt: row.due_at,
  createdAt: row.created_at,
});

/**
 * Seals that wait, like certifications: a kit whose authority could not seal it when it was saved
 * is kept here until its seal is added, so that closing the app or the command loses nothing.
 */
export class KitSeals {
  private readonly sql;

  constructor(db: QueueDb) {
    this.sql = statementCache(db);
  }

  add(
    waiting: Pick<KitSeal, 'profileId' | 'tsaUrl' | 'problem'> &
      (Pick<KitSeal, 'dir' | 'zip' | 'manifestSha256'> | { certificationId: number; file: string }),
    dueAt: number,
    now = Date.now(),
  ): number {
    const { lastInsertRowid } = this.sql(
      `INSERT INTO kit_seals (profile_id, tsa_url, dir, zip, manifest_sha256, certification_id, file, state,
         problem, due_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'waiting', ?, ?, ?, ?)`,
    ).run(
      waiting.profileId,
      waiting.tsaUrl,
      'dir' in waiting ? waiting.dir : null,
      'zip' in waiting ? waiting.zip : null,
      'manifestSha256' in waiting ? waiting.manifestSha256 : null,
      'certificationId' in waiting ? waiting.certificationId : null,
      'file' in waiting ? waiting.file : null,
      storedSaid(waiting.problem),
      dueAt,
      now,
      now,
    );
    return Number(lastInsertRowid);
  }

  get(id: number): KitSeal | null {
    const row = this.sql('SELECT * FROM kit_seals WHERE id = ?').get(id) as KitSealRow | undefined;
    return row ? seal(row) : null;
  }

  /** The seals to ask for now, oldest first. */
  due(now: number, limit = 16): KitSeal[] {
    return (
      this.sql(
        `SELECT * FROM kit_seals WHERE state = 'waiting' AND due_at <= ? ORDER BY due_at, id LIMIT ?`,
      ).all(now, limit) as KitSealRow[]
    ).map(seal);
  }

  nextDueAt(): number | null {
    const row = this.sql(`SELECT MIN(due_at) AS at FROM kit_seals WHERE state = 'waiting'`).get() as {
      at: number | null;
    };
    return row.at;
  }

  /** Every kit of a profile still waiting for its seal, oldest first. */
  waiting(profileId: string): KitSeal[] {
    return (
      this.sql(`SELECT * FROM kit_seals WHERE state = 'waiting' AND profile_id = ? ORDER BY id`).all(
        profileId,
      ) as KitSealRow[]
    ).map(seal);
  }

  /** Asked again without a seal: the reason, and when next. */
  defer(id: number, problem: Said, dueAt: number, now = Date.now()): void {
    this.sql(
      `UPDATE kit_seals SET problem = ?, attempts = attempts + 1, due_at = ?, updated_at = ?
       WHERE id = ? AND state = 'waiting'`,
    ).run(storedSaid(problem), dueAt, now, id);
  }

  sealed(id: number, now = Date.now()): void {
    this.sql(
      `UPDATE kit_seals SET state = 'sealed', problem = NULL, due_at = NULL, updated_at = ? WHERE id = ?`,
    ).run(now, id);
  }

  /** A certificate saved unsealed, by choice, where its seal was waiting: that seal is no longer wanted. */
  dropCertificate(certificationId: number, file: string, now = Date.now()): void {
    this.sql(
      `UPDATE kit_seals SET state = 'given_up', due_at = NULL, updated_at = ?
       WHERE state = 'waiting' AND certification_id = ? AND file = ?`,
    ).run(now, certificationId, file);
  }

  /** The kit can never be sealed (it went, or was changed): said, and not asked again. */
  giveUp(id: number, problem: Said, now = Date.now()): void {
    this.sql(
      `UPDATE kit_seals SET state = 'given_up', problem = ?, due_at = NULL, updated_at = ? WHERE id = ?`,
    ).run(storedSaid(problem), now, id);
  }
}
