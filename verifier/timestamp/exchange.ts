import { sha256 } from '@noble/hashes/sha2.js';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toArrayBuffer } from '../bytes';

/** RFC 3161 over HTTP (§3.4): the media types of a request and its answer. */
export const TIMESTAMP_QUERY = 'application/timestamp-query';
export const TIMESTAMP_REPLY = 'application/timestamp-reply';

const SHA256_OID = '2.16.840.1.101.3.4.2.1';

/** A TimeStampReq for SHA-256 of `data`, with our nonce, asking for the signer's certificate. */
export function timestampRequest(data: Uint8Array, nonce: bigint, policyOid?: string): Uint8Array {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256_OID }),
      hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(sha256(data)) }),
    }),
    nonce: asn1js.Integer.fromBigInt(nonce),
    certReq: true,
    ...(policyOid ? { reqPolicy: policyOid } : {}),
  });
  return new Uint8Array(request.toSchema().toBER(false));
}

/** A positive 63-bit nonce: fits every TSA's INTEGER handling and is never guessed twice. */
export function freshNonce(random: (bytes: Uint8Array) => Uint8Array): bigint {
  const bytes = random(new Uint8Array(8));
  // The top bit cleared keeps the INTEGER positive.
  return bytes.reduce((value, byte, i) => (value << 8n) | BigInt(i === 0 ? byte & 0x7f : byte), 0n) || 1n;
}

/**
 * A TimeStampResp: the token when granted; else the authority's refusal (its PKIStatus and its
 * own words), or what is wrong with the answer. Callers word these for their readers.
 */
export function readTimestampResponse(
  bytes: Uint8Array,
):
  | { token: Uint8Array }
  | { refused: { status: number; said: string } }
  | { unreadable: 'not_a_response' | 'no_token' } {
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(toArrayBuffer(bytes));
  } catch {
    return { unreadable: 'not_a_response' };
  }
  const status = response.status.status as number;
  if (status !== 0 && status !== 1) {
    const said = (response.status.statusStrings ?? []).map((s) => s.valueBlock.value).join('; ');
    return { refused: { status, said } };
  }
  if (!response.timeStampToken) return { unreadable: 'no_token' };
  return { token: new Uint8Array(response.timeStampToken.toSchema().toBER(false)) };
}
