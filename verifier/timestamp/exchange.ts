import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toArrayBuffer } from '../bytes';

/** RFC 3161 over HTTP (§3.4): the media types of a request and its answer. */
export const TIMESTAMP_QUERY = 'application/timestamp-query';
export const TIMESTAMP_REPLY = 'application/timestamp-reply';

const IMPRINT_OIDS = { sha256: '2.16.840.1.101.3.4.2.1', sha512: '2.16.840.1.101.3.4.2.3' } as const;

/**
 * A TimeStampReq for data by its hash (SHA-256, or SHA-512 for a tree renewed to it; hashed by the
 * caller, natively where it can), with our nonce, asking for the signer's certificate.
 */
export function timestampRequest(
  imprint: Uint8Array,
  nonce: bigint,
  policyOid?: string,
  algorithm: keyof typeof IMPRINT_OIDS = 'sha256',
): Uint8Array {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: IMPRINT_OIDS[algorithm] }),
      hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(imprint) }),
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
  const granted = grantedToken(bytes);
  if (granted) return { token: granted };
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

const SEQUENCE = 0x30;

/**
 * The token of a granted answer, as the authority's own bytes, read without parsing it: the
 * token is parsed once, where it is checked (asn1js parsing and re-encoding it here cost as much
 * again for every sealed PDF). TimeStampResp ::= SEQUENCE { status PKIStatusInfo, token
 * ContentInfo }. Anything else (a refusal, an indefinite length) is left to the full reading.
 */
function grantedToken(bytes: Uint8Array): Uint8Array | undefined {
  const response = derElement(bytes, 0);
  if (response?.tag !== SEQUENCE || response.end !== bytes.length) return undefined;
  const status = derElement(bytes, response.contentStart);
  if (status?.tag !== SEQUENCE) return undefined;
  // PKIStatusInfo ::= SEQUENCE { status INTEGER, ... }: granted (0) or granted with mods (1).
  const value = derElement(bytes, status.contentStart);
  const code = value && value.end - value.contentStart === 1 ? bytes[value.contentStart] : undefined;
  if (value?.tag !== 0x02 || (code !== 0 && code !== 1)) return undefined;
  const token = derElement(bytes, status.end);
  if (token?.tag !== SEQUENCE || token.end !== response.end) return undefined;
  return bytes.slice(status.end, token.end);
}

/** One DER element's tag and where its contents start and it ends; undefined if it overruns. */
function derElement(
  bytes: Uint8Array,
  at: number,
): { tag: number; contentStart: number; end: number } | undefined {
  const tag = bytes[at];
  const first = bytes[at + 1];
  if (tag === undefined || first === undefined) return undefined;
  let length = first;
  let contentStart = at + 2;
  if (first & 0x80) {
    const octets = first & 0x7f;
    // 0x80 is BER's indefinite length; more than four octets is no timestamp answer.
    if (octets === 0 || octets > 4) return undefined;
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + (bytes[contentStart + i] ?? NaN);
    contentStart += octets;
  }
  const end = contentStart + length;
  return Number.isFinite(end) && end <= bytes.length ? { tag, contentStart, end } : undefined;
}
