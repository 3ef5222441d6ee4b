import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Byte helpers that run alike in Node and in a browser from file:// — the verifier is the same
 * code in Evidence Desk and in verify.html.
 */
export { bytesToHex, concatBytes, hexToBytes, sha256, utf8ToBytes };

/** Strict base64: a decoder that skips stray characters or bad padding would let an altered signature pass. */
export function isCanonicalBase64(text: string): boolean {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return false;
  try {
    return btoa(atob(text)) === text;
  } catch {
    return false;
  }
}

export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function uint64(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value));
  return bytes;
}

/** The log key's fingerprint (and the sandbox's key id): SHA-256 of its SubjectPublicKeyInfo DER, hex. */
export function logKeyFingerprint(publicKeyDerBase64: string): string {
  return bytesToHex(sha256(base64ToBytes(publicKeyDerBase64)));
}

/** The exact bytes of a view as an ArrayBuffer of their own, as WebCrypto and pkijs want them. */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  // Uint8Array's own slice copies; a Node Buffer's slice would share (and hand over) its whole pool.
  return Uint8Array.prototype.slice.call(bytes).buffer as ArrayBuffer;
}
