import type { QueueDb } from './database';
import { statementCache } from './statements';

/** An issuer's signed word on one certificate, as fetched. */
export interface KeptStatus {
  kind: 'ocsp' | 'crl';
  der: Uint8Array;
}

/**
 * OCSP responses and CRLs, kept per certificate (by its SHA-256) for as long as they say they hold:
 * an authority signs every token with the same certificate, so its status is asked once per
 * validity period, not once per token.
 */
export class CertificateStatusStore {
  private readonly sql;

  constructor(db: QueueDb) {
    this.sql = statementCache(db);
  }

  /** What was kept for a certificate that still holds at `now`, or null. */
  get(certificate: string, now: number): KeptStatus | null {
    const row = this.sql(
      'SELECT kind, der FROM certificate_status WHERE certificate = ? AND good_until >= ?',
    ).get(certificate, now) as { kind: KeptStatus['kind']; der: Buffer } | undefined;
    return row ? { kind: row.kind, der: new Uint8Array(row.der) } : null;
  }

  put(certificate: string, status: KeptStatus, goodUntil: number, now: number): void {
    this.sql(
      `INSERT INTO certificate_status (certificate, kind, der, fetched_at, good_until) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (certificate) DO UPDATE SET kind = excluded.kind, der = excluded.der,
         fetched_at = excluded.fetched_at, good_until = excluded.good_until`,
    ).run(certificate, status.kind, Buffer.from(status.der), now, goodUntil);
  }
}
