import type { ValidationData } from '../timestamp/chain-standing';
import type { Element } from '../der';
import { children, der, elementAt } from '../der';

/*
 * An archive timestamp's validation data, where RFC 4998 (§5.2) wants it before the next renewal
 * covers the timestamp: inside the token's SignedData, the chain in `certificates` and what its
 * issuers signed in `crls` (CRLs as they are, OCSP responses as other revocation information, RFC
 * 5940). Neither field is signed: the authority's signature holds, and a renewal then covers them.
 */

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const CERTIFICATES = 0xa0;
const CRLS = 0xa1;
const OTHER_REVOCATION_INFO = 0xa1;
/** id-ri-ocsp-response (RFC 5940): an OCSPResponse. */
const OCSP_RESPONSE_FORMAT = Uint8Array.of(0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x10, 0x02);

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

interface SignedDataLayout {
  contentInfo: Element;
  explicit: Element;
  fields: Element[];
}

function layoutOf(token: Uint8Array): SignedDataLayout | undefined {
  const contentInfo = elementAt(token, 0);
  if (contentInfo?.tag !== SEQUENCE || contentInfo.end !== token.length) return undefined;
  const [, explicit] = children(token, contentInfo) ?? [];
  if (explicit?.tag !== 0xa0) return undefined;
  const [signedData] = children(token, explicit) ?? [];
  if (signedData?.tag !== SEQUENCE) return undefined;
  const fields = children(token, signedData);
  return fields && fields.length >= 4 ? { contentInfo, explicit, fields } : undefined;
}

const bytesOf = (token: Uint8Array, element: Element) => token.subarray(element.start, element.end);
const contentsOf = (token: Uint8Array, element: Element | undefined) =>
  element ? (children(token, element) ?? []).map((child) => bytesOf(token, child)) : [];

/**
 * The token with `chain` among its certificates and `data` in its revocation information (what is
 * there already kept, nothing twice). Undefined when the token is not laid out as a SignedData.
 */
export function withValidationData(
  token: Uint8Array,
  chain: readonly Uint8Array[],
  data: ValidationData,
): Uint8Array | undefined {
  const layout = layoutOf(token);
  if (!layout) return undefined;
  const { fields } = layout;
  const [version, digestAlgorithms, content] = fields as [Element, Element, Element];
  const certificatesField = fields.find((field) => field.tag === CERTIFICATES);
  const crlsField = fields.find((field) => field.tag === CRLS);
  const signerInfos = fields.at(-1) as Element;
  const add = (kept: Uint8Array[], more: readonly Uint8Array[]) => {
    for (const item of more) if (!kept.some((k) => same(k, item))) kept.push(item);
    return kept;
  };
  const certificates = add(contentsOf(token, certificatesField), chain);
  const ocsp = data.ocsp.map((response) => der(OTHER_REVOCATION_INFO, OCSP_RESPONSE_FORMAT, response));
  const revocation = add(add(contentsOf(token, crlsField), data.crl), ocsp);
  // RFC 5652 §5.1: version 5 once other revocation information is present.
  const versionBytes = ocsp.length ? der(INTEGER, Uint8Array.of(5)) : bytesOf(token, version);
  const signedData = der(
    SEQUENCE,
    versionBytes,
    bytesOf(token, digestAlgorithms),
    bytesOf(token, content),
    ...(certificates.length ? [der(CERTIFICATES, ...certificates)] : []),
    ...(revocation.length ? [der(CRLS, ...revocation)] : []),
    bytesOf(token, signerInfos),
  );
  const [contentType] = children(token, layout.contentInfo) as [Element];
  return der(SEQUENCE, bytesOf(token, contentType), der(0xa0, signedData));
}

/** The certificates and validation data a token carries (none when it cannot be read that far). */
export function validationDataIn(token: Uint8Array): { certificates: Uint8Array[]; data: ValidationData } {
  const layout = layoutOf(token);
  const field = (tag: number) => layout?.fields.find((element) => element.tag === tag);
  const certificates = contentsOf(token, field(CERTIFICATES)).filter((c) => c[0] === SEQUENCE);
  const crl: Uint8Array[] = [];
  const ocsp: Uint8Array[] = [];
  for (const choice of contentsOf(token, field(CRLS))) {
    if (choice[0] === SEQUENCE) crl.push(choice);
    const top = elementAt(choice, 0);
    if (choice[0] !== OTHER_REVOCATION_INFO || !top) continue;
    const [format, info] = children(choice, top) ?? [];
    if (!format || !info) continue;
    if (same(bytesOf(choice, format), OCSP_RESPONSE_FORMAT)) ocsp.push(bytesOf(choice, info));
  }
  return { certificates, data: { ocsp, crl } };
}
