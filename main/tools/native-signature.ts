import { createPublicKey, verify } from 'node:crypto';
import type { Ed25519Verify } from '../../verifier/signature';

/** Node's native Ed25519 check: the app verifies every anchored row, so it uses the fast one. */
export const nodeEd25519Verify: Ed25519Verify = (spki, message, signature) => {
  try {
    const key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
};
