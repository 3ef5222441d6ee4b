import { createHash, createPublicKey } from 'node:crypto';
import { isLogKeyFingerprint } from '../../protocol/profiles';
import { base64ToBytes } from '../../verifier/bytes';

/** Ed25519 log keys as this computer reads them: base64 SubjectPublicKeyInfo DER, and their fingerprints. */

export function isCanonicalSpki(base64: string): boolean {
  try {
    return (
      base64ToBytes(base64).length === 44 &&
      createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' })
        .asymmetricKeyType === 'ed25519'
    );
  } catch {
    return false;
  }
}

/** A PEM public key as base64 SubjectPublicKeyInfo DER, if it is an Ed25519 key. */
export function spkiOfPem(pem: string): string | null {
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') return null;
    return key.export({ type: 'spki', format: 'der' }).toString('base64');
  } catch {
    return null;
  }
}

/** A trusted key given as a fingerprint or a PEM file's text, as its fingerprint. */
export function fingerprintOfKey(value: string): string | null {
  if (isLogKeyFingerprint(value))
    return value
      .trim()
      .replace(/^sha256:/, '')
      .toLowerCase();
  const spki = spkiOfPem(value);
  return spki ? createHash('sha256').update(Buffer.from(spki, 'base64')).digest('hex') : null;
}
