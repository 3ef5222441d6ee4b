import * as pkijs from 'pkijs';
import { bytesToHex, concatBytes, toArrayBuffer } from '../bytes';
import type { Element } from '../der';
import { children, elementAt, lengthOctets } from '../der';

/**
 * A token carries its authority's certificates, the same ones in every token, and parsing them is
 * most of the work of reading a token (asn1js and pkijs build a tree of every field of every
 * certificate). So a token is read in two parts: the certificates are cut out of its DER and each
 * is parsed once per process, kept by its exact bytes; the rest is parsed as usual. Anything not
 * laid out as DER with plain certificates is left whole, for pkijs to read (or refuse) as before.
 */

const SEQUENCE = 0x30;
const CONTEXT_0 = 0xa0;

/**
 * The token's DER without its certificates field, and each certificate's DER; undefined when the
 * token is not laid out as expected (ContentInfo → [0] → SignedData with [0] of certificates).
 */
export function cutCertificates(
  token: Uint8Array,
): { rest: Uint8Array; certificates: Uint8Array[] } | undefined {
  const contentInfo = elementAt(token, 0);
  if (contentInfo?.tag !== SEQUENCE || contentInfo.end !== token.length) return undefined;
  const [, explicit] = children(token, contentInfo) ?? [];
  if (explicit?.tag !== CONTEXT_0) return undefined;
  const [signedData] = children(token, explicit) ?? [];
  if (signedData?.tag !== SEQUENCE || signedData.end !== explicit.end) return undefined;
  // SignedData: version, digest algorithms, content, then certificates [0] (RFC 5652 §5.1). Any
  // other layout, a second [0] included, is pkijs's to read or refuse whole, as it would have been.
  const fields = children(token, signedData);
  const field = fields?.[3]?.tag === CONTEXT_0 ? fields[3] : undefined;
  if (fields?.some((f, index) => f.tag === CONTEXT_0 && index !== 3)) return undefined;
  const certificates = field && children(token, field);
  if (!field || !certificates?.length || certificates.some((c) => c.tag !== SEQUENCE)) return undefined;

  const removed = field.end - field.start;
  const header = (tag: number, element: Element) =>
    new Uint8Array([tag, ...lengthOctets(element.end - element.contents - removed)]);
  const rest = concatBytes(
    header(SEQUENCE, contentInfo),
    token.subarray(contentInfo.contents, explicit.start),
    header(CONTEXT_0, explicit),
    header(SEQUENCE, signedData),
    token.subarray(signedData.contents, field.start),
    token.subarray(field.end, signedData.end),
  );
  return { rest, certificates: certificates.map((c) => token.subarray(c.start, c.end)) };
}

// Kept by exact bytes, so only the very same certificate is taken as read; bounded, since a
// process may meet many authorities (a folder of receipts from years of renewals).
const parsed = new Map<string, pkijs.Certificate>();
const PARSED_KEPT = 64;

/** The certificate in these bytes, parsed once per process (throws, as pkijs does, on bad DER). */
export function certificateOf(der: Uint8Array): pkijs.Certificate {
  const key = bytesToHex(der);
  let certificate = parsed.get(key);
  if (!certificate) {
    certificate = pkijs.Certificate.fromBER(toArrayBuffer(der));
    if (parsed.size >= PARSED_KEPT) parsed.clear();
    parsed.set(key, certificate);
  }
  return certificate;
}
