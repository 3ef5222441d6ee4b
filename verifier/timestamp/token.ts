import { sha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { TimestampCheck } from '../../protocol/receipt';
import { bytesToHex, toArrayBuffer } from '../bytes';
import { certificateOf, cutCertificates } from './token-certificates';
import type { ChainTrust } from './token-chain';
import { derOf, trustedChain } from './token-chain';

/**
 * Checking an RFC 3161 timestamp token, the same way in Evidence Desk and in verify.html (pkijs on
 * WebCrypto). pkijs verifies the CMS signature and the message imprint, but leaves the chain off
 * by default and never looks at the signer's extended key usage or its ESSCertID binding: those
 * checks are ours, and each has a test that fails without it.
 */

const OID = {
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  signedData: '1.2.840.113549.1.7.2',
  data: '1.2.840.113549.1.7.1',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha512: '2.16.840.1.101.3.4.2.3',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
} as const;

/** What a token is checked against; the chain's sources and trust as ChainTrust says (the receipt's or a profile's certificates). */
export interface TokenExpectation extends ChainTrust {
  /** The bytes that were timestamped (here: a Merkle root); the imprint must be SHA-256 of them. */
  data: Uint8Array;
  /** SHA-256 of `data`, when the caller has it already (a sealed PDF's range, hashed natively). */
  dataSha256?: Uint8Array;
  /** The nonce we sent, when checking a fresh answer; a stored token is checked without one. */
  nonce?: bigint;
  /**
   * The imprint is `dataSha256` itself, not a hash of bytes we hold: an RFC 4998 archive timestamp
   * over a hash tree's root, whose preimage is two hashes no one keeps.
   */
  imprintIsDigest?: boolean;
  /** The imprint's hash, SHA-256 unless said (an evidence record renewed to SHA-512, RFC 4998 §5.2). */
  imprintAlgorithm?: 'sha256' | 'sha512';
}

export type TokenCheck =
  | {
      ok: true;
      genTime: Date;
      /** The authority as its certificate names it. */
      authority: string;
      rootFingerprint: string;
      /** The certificate path, signer first, root last, DER: kept with the token so it checks offline. */
      chain: Uint8Array[];
      serial: string;
      /** The TSA policy the token was signed under (TSTInfo.policy). */
      policy: string;
    }
  | { ok: false; check: TokenCheckName; message: string }
  | { ok: false; check: 'untrusted'; message: string; rootFingerprint: string; authority: string };

/** A token's own checks: all of a receipt's timestamp checks but its evidence record's. */
export type TokenCheckName = Exclude<TimestampCheck, 'record'>;

const fail = (check: TokenCheckName, message: string): TokenCheck => ({ ok: false, check, message });

export { certificateFingerprint, certificatesFromPem } from './certificate-bytes';

/** The name to show for an authority: its certificate's common name, else its organisation. */
export function subjectName(certificate: pkijs.Certificate): string {
  const value = (type: string) =>
    certificate.subject.typesAndValues.find((entry) => entry.type === type)?.value.valueBlock.value as
      string | undefined;
  return value(OID.commonName) ?? value(OID.organization) ?? 'an unnamed authority';
}

interface ParsedToken {
  signed: pkijs.SignedData;
  info: pkijs.TSTInfo;
}

/**
 * Whether the token's signature holds over its TSTInfo. pkijs also compares a TSTInfo's imprint with
 * the hash of the data given; with no preimage (imprintIsDigest, checked above against the imprint)
 * it verifies the same signature as it would over any signed content.
 */
async function signatureOver(signed: pkijs.SignedData, expect: TokenExpectation): Promise<boolean> {
  if (!expect.imprintIsDigest)
    return signed.verify({ signer: 0, data: toArrayBuffer(expect.data) }).catch(() => false);
  const type = signed.encapContentInfo.eContentType;
  signed.encapContentInfo.eContentType = OID.data;
  try {
    return await signed.verify({ signer: 0 }).catch(() => false);
  } finally {
    signed.encapContentInfo.eContentType = type;
  }
}

function parseToken(token: Uint8Array): ParsedToken | undefined {
  try {
    const cut = cutCertificates(token);
    const content = pkijs.ContentInfo.fromBER(toArrayBuffer(cut?.rest ?? token));
    if (content.contentType !== OID.signedData) return undefined;
    const signed = new pkijs.SignedData({ schema: content.content });
    if (cut) signed.certificates = cut.certificates.map(certificateOf);
    if (signed.encapContentInfo.eContentType !== OID.tstInfo || !signed.encapContentInfo.eContent)
      return undefined;
    const info = pkijs.TSTInfo.fromBER(signed.encapContentInfo.eContent.getValue());
    return { signed, info };
  } catch {
    return undefined;
  }
}

/** Checks a token, every check named, in the order a reader would ask them. */
export async function checkTimestampToken(token: Uint8Array, expect: TokenExpectation): Promise<TokenCheck> {
  const parsed = parseToken(token);
  if (!parsed) return fail('format', 'The timestamp is not an RFC 3161 token that can be read.');
  const { signed, info } = parsed;

  const imprint = info.messageImprint;
  if (
    imprint.hashAlgorithm.algorithmId !== OID[expect.imprintAlgorithm ?? 'sha256'] ||
    bytesToHex(new Uint8Array(imprint.hashedMessage.valueBlock.valueHexView)) !==
      bytesToHex(expect.dataSha256 ?? sha256(expect.data))
  )
    return fail('imprint', 'The timestamp is for other data than this batch (its message imprint differs).');
  if (expect.nonce !== undefined && (!info.nonce || info.nonce.toBigInt() !== expect.nonce))
    return fail('nonce', 'The timestamp answers another request (its nonce is not ours).');

  const signer = signerCertificate(signed);
  if (!signer) return fail('signature', 'The timestamp does not include the certificate that signed it.');
  const signatureHolds = await signatureOver(signed, expect);
  if (!signatureHolds) return fail('signature', 'The timestamp’s signature does not hold.');

  if (!hasOnlyCriticalTimeStampingUsage(signer))
    return fail(
      'usage',
      `The certificate that signed the timestamp (${subjectName(signer)}) is not one for timestamping (RFC 3161 requires the critical timeStamping extended key usage).`,
    );
  if (!boundToSigner(signed, signer))
    return fail(
      'signer_binding',
      'The timestamp does not name the certificate that signed it (ESSCertID): another certificate could be passed off as its signer.',
    );
  const genTime = info.genTime;
  if (genTime < signer.notBefore.value || genTime > signer.notAfter.value)
    return fail(
      'validity',
      `The timestamp was made at ${genTime.toISOString()}, outside its signing certificate’s validity (${signer.notBefore.value.toISOString()} to ${signer.notAfter.value.toISOString()}).`,
    );
  return checkChain(signed, signer, genTime, info, expect);
}

/** The signer's chain to a root trusted here, at the token's time: its words for a reader. */
async function checkChain(
  signed: pkijs.SignedData,
  signer: pkijs.Certificate,
  genTime: Date,
  info: pkijs.TSTInfo,
  expect: TokenExpectation,
): Promise<TokenCheck> {
  const authority = subjectName(signer);
  const tokenCertificates = (signed.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate,
  );
  const found = await trustedChain(signer, tokenCertificates, expect, genTime);
  if ('untrustedRoot' in found)
    return {
      ok: false,
      check: 'untrusted',
      authority,
      rootFingerprint: found.untrustedRoot,
      message: `The timestamp holds together, but ${authority} chains to a root certificate this computer does not trust (SHA-256 fingerprint ${found.untrustedRoot}). Compare it with the authority's published root; if they match, check again trusting it.`,
    };
  if ('broken' in found)
    return fail(
      'chain',
      `The certificate of ${authority} does not lead to a trusted root at the time of the timestamp (${found.broken}).`,
    );
  return {
    ok: true,
    genTime,
    authority,
    rootFingerprint: found.rootFingerprint,
    chain: found.chain,
    serial: bytesToHex(new Uint8Array(info.serialNumber.valueBlock.valueHexView)),
    policy: info.policy,
  };
}

function signerCertificate(signed: pkijs.SignedData): pkijs.Certificate | undefined {
  const sid = signed.signerInfos[0]?.sid;
  if (!(sid instanceof pkijs.IssuerAndSerialNumber)) return undefined;
  return (signed.certificates ?? []).find(
    (c): c is pkijs.Certificate =>
      c instanceof pkijs.Certificate &&
      c.issuer.isEqual(sid.issuer) &&
      c.serialNumber.isEqual(sid.serialNumber),
  );
}

/** RFC 3161 §2.3: the TSA's certificate has exactly one extended key usage, timeStamping, marked critical. */
function hasOnlyCriticalTimeStampingUsage(certificate: pkijs.Certificate): boolean {
  const extension = certificate.extensions?.find((e) => e.extnID === OID.extKeyUsage);
  if (!extension?.critical) return false;
  const usage = extension.parsedValue as pkijs.ExtKeyUsage | undefined;
  return usage?.keyPurposes.length === 1 && usage.keyPurposes[0] === OID.timeStamping;
}

/** RFC 5035 / RFC 2634: a signed attribute carries the hash of the signer's certificate (ESSCertIDv2 or ESSCertID). */
function boundToSigner(signed: pkijs.SignedData, signer: pkijs.Certificate): boolean {
  const attributes = signed.signerInfos[0]?.signedAttrs?.attributes ?? [];
  const der = derOf(signer);
  for (const attribute of attributes) {
    if (attribute.type !== OID.signingCertificateV2 && attribute.type !== OID.signingCertificate) continue;
    try {
      // SigningCertificate(V2) ::= SEQUENCE { certs SEQUENCE OF ESSCertID(v2), ... }
      const certs = (attribute.values[0] as asn1js.Sequence).valueBlock.value[0] as asn1js.Sequence;
      const first = certs.valueBlock.value[0] as asn1js.Sequence;
      const fields = first.valueBlock.value;
      if (attribute.type === OID.signingCertificate) {
        const hash = (fields[0] as asn1js.OctetString).valueBlock.valueHexView;
        return bytesToHex(new Uint8Array(hash)) === bytesToHex(sha1(der));
      }
      // ESSCertIDv2 ::= SEQUENCE { hashAlgorithm AlgorithmIdentifier DEFAULT sha256, certHash, ... }
      const hasAlgorithm = fields[0] instanceof asn1js.Sequence;
      if (hasAlgorithm) {
        const algorithm = (fields[0] as asn1js.Sequence).valueBlock.value[0] as asn1js.ObjectIdentifier;
        if (algorithm.valueBlock.toString() !== OID.sha256) return false;
      }
      const hash = (fields[hasAlgorithm ? 1 : 0] as asn1js.OctetString).valueBlock.valueHexView;
      return bytesToHex(new Uint8Array(hash)) === bytesToHex(sha256(der));
    } catch {
      return false;
    }
  }
  return false;
}
