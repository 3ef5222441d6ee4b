import { ed25519 } from '@noble/curves/ed25519.js';

/** Checks an Ed25519 signature with a key given as SubjectPublicKeyInfo DER. */
export type Ed25519Verify = (
  publicKeySpki: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
) => boolean;

// An Ed25519 SubjectPublicKeyInfo is this fixed 12-byte header followed by the 32-byte key (RFC 8410).
const ED25519_SPKI_PREFIX = Uint8Array.of(
  0x30,
  0x2a,
  0x30,
  0x05,
  0x06,
  0x03,
  0x2b,
  0x65,
  0x70,
  0x03,
  0x21,
  0x00,
);

/** The audited pure-JS check, for the browser (verify.html); Evidence Desk passes Node's native one. */
export const nobleEd25519Verify: Ed25519Verify = (spki, message, signature) => {
  if (spki.length !== 44 || !ED25519_SPKI_PREFIX.every((byte, i) => spki[i] === byte)) return false;
  try {
    return ed25519.verify(signature, message, spki.subarray(12), { zip215: false });
  } catch {
    return false;
  }
};
