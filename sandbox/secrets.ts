import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh high-entropy credential, prefixed so a leaked string says what it is. */
export function newCredential(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

// Every credential the sandbox issues is 256 random bits, so a plain SHA-256 is enough to keep
// it out of the database; a slow password hash would only matter for secrets people choose.
export function digest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function sameDigest(value: string, expectedDigest: string): boolean {
  const a = Buffer.from(digest(value), 'hex');
  const b = Buffer.from(expectedDigest, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
