import { sha256 } from '@noble/hashes/sha2.js';
import { pemCertificates } from '../../protocol/profiles';
import { base64ToBytes, bytesToHex } from '../bytes';

// Apart from the token's checks (pkijs): what only names or reads certificates loads none of it, so a
// command that never checks a token starts without parsing pkijs.

/** A certificate's fingerprint: the SHA-256 of its DER, in hex. */
export const certificateFingerprint = (der: Uint8Array): string => bytesToHex(sha256(der));

/** The DER of each certificate in a PEM bundle. */
export const certificatesFromPem = (pem: string): Uint8Array[] =>
  pemCertificates(pem).map((block) => base64ToBytes(block.replace(/-----[^-]+-----|\s/g, '')));
