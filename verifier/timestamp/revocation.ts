import { sha1 } from '@noble/hashes/legacy.js';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toArrayBuffer } from '../bytes';

/**
 * What an authority's certificate's issuer signed about it: an OCSP response (RFC 6960) or a CRL
 * (RFC 5280), read and checked against the certificate and its issuer, offline. Kept beside a
 * token, they show that the authority was in good standing when it signed, long after its
 * certificate has expired (docs/evidence.md, "Validation data"). Used in Evidence Desk and in
 * verify.html alike.
 */

const OID = {
  basicOcsp: '1.3.6.1.5.5.7.48.1.1',
  ocspSigning: '1.3.6.1.5.5.7.3.9',
  extKeyUsage: '2.5.29.37',
  crlReason: '2.5.29.21',
} as const;

/** CRL reasons that say the key may have signed for someone else before it was revoked (RFC 5280 §5.3.1). */
const COMPROMISE_REASONS = new Set([1, 2]); // keyCompromise, cACompromise

/** The status a response or a list gives one certificate, and for which times. */
export interface CertificateStatus {
  source: 'ocsp' | 'crl';
  status: 'good' | 'revoked' | 'unknown';
  thisUpdate: Date;
  nextUpdate: Date | null;
  revokedAt?: Date;
  /** The CRLReason code, when one is given. */
  reason?: number;
}

/** Why a response or list says nothing reliable about a certificate. */
export type StatusProblem =
  | 'unreadable'
  | 'not_successful'
  | 'other_certificate'
  | 'bad_signature'
  | 'unauthorised_responder'
  | 'other_issuer';

export type StatusRead = { ok: true; status: CertificateStatus } | { ok: false; problem: StatusProblem };

/** An OCSP response about `certificate`, signed by its issuer or by a responder the issuer named. */
export async function readOcspResponse(
  der: Uint8Array,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
): Promise<StatusRead> {
  let basic: pkijs.BasicOCSPResponse;
  try {
    const response = pkijs.OCSPResponse.fromBER(toArrayBuffer(der));
    if (response.responseStatus.valueBlock.valueDec !== 0 || !response.responseBytes)
      return { ok: false, problem: 'not_successful' };
    if (response.responseBytes.responseType !== OID.basicOcsp) return { ok: false, problem: 'unreadable' };
    basic = pkijs.BasicOCSPResponse.fromBER(
      toArrayBuffer(response.responseBytes.response.valueBlock.valueHexView),
    );
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
  const single = await responseAbout(basic, certificate, issuer);
  if (!single) return { ok: false, problem: 'other_certificate' };
  const responder = [issuer, ...(basic.certs ?? [])].find((candidate) =>
    isResponder(candidate, basic.tbsResponseData.responderID),
  );
  if (!responder) return { ok: false, problem: 'unauthorised_responder' };
  const crypto = pkijs.getCrypto(true);
  const signed = await crypto
    .verifyWithPublicKey(
      toArrayBuffer(basic.tbsResponseData.tbsView),
      basic.signature,
      responder.subjectPublicKeyInfo,
      basic.signatureAlgorithm,
    )
    .catch(() => false);
  if (!signed) return { ok: false, problem: 'bad_signature' };
  if (!sameKey(responder, issuer) && !(await isDelegatedBy(responder, issuer)))
    return { ok: false, problem: 'unauthorised_responder' };
  return { ok: true, status: { source: 'ocsp', ...statusOf(single) } };
}

/** A CRL signed by `issuer`, and what it says of `certificate`. */
export async function readCrl(
  der: Uint8Array,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
): Promise<StatusRead> {
  let crl: pkijs.CertificateRevocationList;
  try {
    crl = pkijs.CertificateRevocationList.fromBER(toArrayBuffer(der));
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
  if (!crl.issuer.isEqual(certificate.issuer)) return { ok: false, problem: 'other_issuer' };
  const signed = await crl.verify({ issuerCertificate: issuer }).catch(() => false);
  if (!signed) return { ok: false, problem: 'bad_signature' };
  const entry = crl.revokedCertificates?.find((revoked) =>
    revoked.userCertificate.isEqual(certificate.serialNumber),
  );
  const reason = entry?.crlEntryExtensions?.extensions.find((e) => e.extnID === OID.crlReason)
    ?.parsedValue as asn1js.Enumerated | undefined;
  return {
    ok: true,
    status: {
      source: 'crl',
      status: entry ? 'revoked' : 'good',
      thisUpdate: crl.thisUpdate.value,
      nextUpdate: crl.nextUpdate?.value ?? null,
      ...(entry ? { revokedAt: entry.revocationDate.value } : {}),
      ...(reason ? { reason: reason.valueBlock.valueDec } : {}),
    },
  };
}

/** What a status says of a signature made at `genTime`. */
export type StandingAt =
  | { holds: true; revokedLater?: Date }
  | { holds: false; why: 'revoked_before' | 'compromised'; revokedAt: Date }
  | { holds: false; why: 'unknown' | 'not_at_that_time' };

/**
 * A certificate was in good standing at `genTime` when its issuer said so then or later: a status
 * issued after genTime (good, or revoked only later for a reason other than compromise), or one
 * whose validity (thisUpdate to nextUpdate) spans genTime.
 */
export function standingAt(status: CertificateStatus, genTime: Date): StandingAt {
  if (status.status === 'unknown') return { holds: false, why: 'unknown' };
  if (status.status === 'revoked' && status.revokedAt) {
    if (status.revokedAt <= genTime)
      return { holds: false, why: 'revoked_before', revokedAt: status.revokedAt };
    if (status.reason !== undefined && COMPROMISE_REASONS.has(status.reason))
      return { holds: false, why: 'compromised', revokedAt: status.revokedAt };
    return { holds: true, revokedLater: status.revokedAt };
  }
  // Times in both are whole seconds: a status issued in the token's own second counts as after it.
  const at = Math.floor(genTime.getTime() / 1000) * 1000;
  const issuedAfter = status.thisUpdate.getTime() >= at;
  const spans =
    status.thisUpdate.getTime() <= at && status.nextUpdate !== null && status.nextUpdate.getTime() >= at;
  return issuedAfter || spans ? { holds: true } : { holds: false, why: 'not_at_that_time' };
}

/** The SingleResponse about this certificate, by its CertID under the hash the response used. */
async function responseAbout(
  basic: pkijs.BasicOCSPResponse,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
): Promise<pkijs.SingleResponse | undefined> {
  const crypto = pkijs.getCrypto(true);
  for (const single of basic.tbsResponseData.responses) {
    const hash = crypto.getAlgorithmByOID(single.certID.hashAlgorithm.algorithmId, false);
    if (!hash || !('name' in hash)) continue;
    const id = new pkijs.CertID();
    await id.createForCertificate(certificate, { hashAlgorithm: hash.name, issuerCertificate: issuer });
    if (single.certID.isEqual(id)) return single;
  }
  return undefined;
}

function isResponder(candidate: pkijs.Certificate, responderID: unknown): boolean {
  if (responderID instanceof pkijs.RelativeDistinguishedNames) return candidate.subject.isEqual(responderID);
  if (responderID instanceof asn1js.OctetString) {
    const keyHash = sha1(candidate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
    const named = responderID.valueBlock.valueHexView;
    return keyHash.length === named.length && keyHash.every((byte, i) => byte === named[i]);
  }
  return false;
}

function sameKey(a: pkijs.Certificate, b: pkijs.Certificate): boolean {
  const x = a.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
  const y = b.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
  return x.length === y.length && x.every((byte, i) => byte === y[i]);
}

/** A responder the issuer delegated: its certificate issued by it, for OCSP signing (RFC 6960 §4.2.2.2). */
async function isDelegatedBy(responder: pkijs.Certificate, issuer: pkijs.Certificate): Promise<boolean> {
  const usage = responder.extensions?.find((e) => e.extnID === OID.extKeyUsage)?.parsedValue as
    pkijs.ExtKeyUsage | undefined;
  if (!usage?.keyPurposes.includes(OID.ocspSigning)) return false;
  if (!responder.issuer.isEqual(issuer.subject)) return false;
  return responder.verify(issuer).catch(() => false);
}

function statusOf(single: pkijs.SingleResponse): Omit<CertificateStatus, 'source'> {
  const times = {
    thisUpdate: single.thisUpdate,
    nextUpdate: single.nextUpdate ?? null,
  };
  const block = single.certStatus as asn1js.Constructed;
  const tag = block.idBlock.tagNumber;
  if (tag === 0) return { status: 'good', ...times };
  if (tag !== 1) return { status: 'unknown', ...times };
  // RevokedInfo ::= SEQUENCE { revocationTime GeneralizedTime, revocationReason [0] EXPLICIT CRLReason OPTIONAL }
  const [time, reasonBox] = block.valueBlock.value as [
    asn1js.GeneralizedTime,
    asn1js.Constructed | undefined,
  ];
  const reason = reasonBox?.valueBlock.value[0] as asn1js.Enumerated | undefined;
  return {
    status: 'revoked',
    ...times,
    revokedAt: time.toDate(),
    ...(reason ? { reason: reason.valueBlock.valueDec } : {}),
  };
}
