import * as pkijs from 'pkijs';
import { base64ToBytes, toArrayBuffer } from '../../verifier/bytes';
import { certificateOf } from '../../verifier/timestamp/token-certificates';
import type { Weakness } from '../store/record-renewals';

/*
 * What a timestamp rests on, against what is retired: the hash its authority signed with, and its
 * signing key's size (record-renewal.ts has the list). Loaded when records are judged, with pkijs.
 */
const DIGESTS: Record<string, string> = {
  '1.2.840.113549.2.5': 'md5',
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
// pkijs names the curves it knows ("P-256"); the OID stays in the key's algorithm parameters.
const CURVE_BITS: Record<string, number> = {
  'P-256': 256,
  'P-384': 384,
  'P-521': 521,
  '1.2.840.10045.3.1.7': 256,
  '1.3.132.0.34': 384,
  '1.3.132.0.35': 521,
};

interface Strength {
  digest: string;
  key: 'rsa' | 'ec' | 'other';
  bits: number;
}

function strengthOf(token: string, signer: string): Strength {
  const content = pkijs.ContentInfo.fromBER(toArrayBuffer(base64ToBytes(token)));
  const signed = new pkijs.SignedData({ schema: content.content });
  const digestOid = signed.signerInfos[0]?.digestAlgorithm.algorithmId ?? '';
  const key = certificateOf(base64ToBytes(signer)).subjectPublicKeyInfo;
  const parsed = key.parsedKey;
  if (parsed instanceof pkijs.RSAPublicKey) {
    const modulus = new Uint8Array(parsed.modulus.valueBlock.valueHexView);
    const leadingZero = modulus[0] === 0 ? 1 : 0;
    return { digest: DIGESTS[digestOid] ?? digestOid, key: 'rsa', bits: (modulus.length - leadingZero) * 8 };
  }
  if (parsed instanceof pkijs.ECPublicKey)
    return { digest: DIGESTS[digestOid] ?? digestOid, key: 'ec', bits: CURVE_BITS[parsed.namedCurve] ?? 0 };
  return { digest: DIGESTS[digestOid] ?? digestOid, key: 'other', bits: 0 };
}

/**
 * What of a token `retired` names (its hash, or its key's kind and size), or null when it rests on
 * nothing retired. A token that cannot be read is not judged here: its checks say why.
 */
export function weaknessOf(
  token: string,
  chain: readonly string[],
  retired: readonly string[],
): Weakness | null {
  let strength: Strength;
  try {
    strength = strengthOf(token, chain[0] ?? '');
  } catch {
    return null;
  }
  if (retired.includes(strength.digest))
    return { digest: strength.digest.toUpperCase().replace(/^SHA(?=\d)/, 'SHA-') };
  for (const entry of retired) {
    const [, kind, least] = /^(rsa|ec)<(\d+)$/.exec(entry) ?? [];
    // A key whose size is not known here (an unnamed curve) is not judged by it.
    if (kind === strength.key && strength.bits > 0 && strength.bits < Number(least))
      return { key: kind === 'rsa' ? 'RSA' : 'EC', bits: strength.bits };
  }
  return null;
}
