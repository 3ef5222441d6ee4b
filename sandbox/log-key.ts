import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { SandboxDb } from './db';
import { getSetting, setSetting } from './db';

export interface LogKey {
  /** SHA-256 of the public key's SubjectPublicKeyInfo DER, hex: names the key in every tree head. */
  keyId: string;
  publicKeyDer: Buffer;
  publicKeyPem: string;
  sign(message: Buffer): Buffer;
}

const SETTING = 'log_signing_key_pkcs8';

/** The Ed25519 key that signs tree heads: made once, then kept, so old evidence stays verifiable. */
export function loadOrCreateLogKey(db: SandboxDb): LogKey {
  let pem = getSetting(db, SETTING);
  if (!pem) {
    pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    setSetting(db, SETTING, pem);
  }
  return toLogKey(createPrivateKey(pem));
}

function toLogKey(privateKey: KeyObject): LogKey {
  const publicKey = createPublicKey(privateKey);
  const publicKeyDer = publicKey.export({ type: 'spki', format: 'der' });
  return {
    keyId: createHash('sha256').update(publicKeyDer).digest('hex'),
    publicKeyDer,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
    sign: (message) => sign(null, message, privateKey),
  };
}

/**
 * The signed bytes of a tree head: RFC 6962 §3.5's TreeHeadSignature
 * (version v1 = 0, signature_type tree_hash = 1, uint64 timestamp in ms, uint64 tree_size, 32-byte root).
 */
export function treeHeadSignatureInput(timestampMs: number, treeSize: number, rootHash: Buffer): Buffer {
  const bytes = Buffer.alloc(2 + 8 + 8 + 32);
  bytes.writeUInt8(0, 0);
  bytes.writeUInt8(1, 1);
  bytes.writeBigUInt64BE(BigInt(timestampMs), 2);
  bytes.writeBigUInt64BE(BigInt(treeSize), 10);
  rootHash.copy(bytes, 18);
  return bytes;
}
