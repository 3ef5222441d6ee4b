import * as pkijs from 'pkijs';
import { base64ToBytes, bytesToBase64 } from '../../verifier/bytes';
import { certificateFingerprint } from '../../verifier/timestamp/certificate-bytes';
import type { StatusRead } from '../../verifier/timestamp/revocation';
import { readCrl, readOcspResponse, standingAt } from '../../verifier/timestamp/revocation';
import { subjectName } from '../../verifier/timestamp/token';
import { certificateOf } from '../../verifier/timestamp/token-certificates';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import type { Fetch } from '../service/network';
import { hostOf } from '../service/authority-host';
import type { CertificateStatusStore, KeptValidation } from '../store';

/**
 * Collects what checking a token later will need (long-term validation): for each certificate of
 * its chain below the root, its issuer's signed status, from the OCSP responder its certificate
 * names (AIA), else its CRL (CDP), through the profile's own network settings. Answers are kept
 * per certificate while they hold (CertificateStatusStore), so a busy desk asks once per validity
 * period, not once per token.
 */
export interface CollectOptions {
  fetch: Fetch;
  statuses: CertificateStatusStore;
  timeoutMs: number;
  stop?: AbortSignal;
  now: () => number;
}

export type Collected =
  /**
   * Nothing more to collect. `finding`: what it shows that nobody can mend by asking again (the
   * authority revoked at the token's time, kept as the proof of it; a certificate that names no
   * status service).
   */
  | { ok: true; data: KeptValidation; finding: Said | null }
  /** Not yet: asked again later. */
  | { ok: false; problem: Said };

const OID = {
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  ocsp: '1.3.6.1.5.5.7.48.1',
  crlDistributionPoints: '2.5.29.31',
} as const;
const URI = 6;
const MAX_OCSP_BYTES = 64 * 1024;
const MAX_CRL_BYTES = 16 * 1024 * 1024;

type Source = { kind: 'ocsp' | 'crl'; url: string };

export async function collectValidationData(
  chain: readonly string[],
  genTime: Date,
  options: CollectOptions,
): Promise<Collected> {
  const data: KeptValidation = { ocsp: [], crl: [] };
  for (let index = 0; index + 1 < chain.length; index++) {
    const der = base64ToBytes(chain[index] as string);
    const certificate = certificateOf(der);
    const issuer = certificateOf(base64ToBytes(chain[index + 1] as string));
    const found = await statusOf(der, certificate, issuer, genTime, options);
    if ('finding' in found) return { ok: true, data, finding: found.finding };
    if ('problem' in found) return { ok: false, problem: found.problem };
    data[found.kind].push(bytesToBase64(found.der));
    if (found.revoked) return { ok: true, data, finding: found.revoked };
  }
  return { ok: true, data, finding: null };
}

async function statusOf(
  der: Uint8Array,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  genTime: Date,
  options: CollectOptions,
): Promise<
  { kind: Source['kind']; der: Uint8Array; revoked: Said | null } | { problem: Said } | { finding: Said }
> {
  const name = subjectName(certificate);
  const fingerprint = certificateFingerprint(der);
  const read = (kind: Source['kind'], bytes: Uint8Array): Promise<StatusRead> =>
    kind === 'ocsp' ? readOcspResponse(bytes, certificate, issuer) : readCrl(bytes, certificate, issuer);

  const kept = options.statuses.get(fingerprint, options.now());
  if (kept) {
    const status = await read(kept.kind, kept.der);
    if (status.ok && standingAt(status.status, genTime).holds) return { ...kept, revoked: null };
  }
  const sources = sourcesOf(certificate);
  if (sources.length === 0) return { finding: said('timestamp.validation.noSource', { certificate: name }) };
  let firstProblem: Said | null = null;
  for (const source of sources) {
    const fetched = await fetchStatus(source, certificate, issuer, options);
    if ('problem' in fetched) {
      firstProblem ??= fetched.problem;
      continue;
    }
    const status = await read(source.kind, fetched.der);
    const gap = (why: string) =>
      said('timestamp.validation.answer', {
        host: hostOf(source.url),
        certificate: name,
        gap: said(`standing.gap.${why}` as Parameters<typeof said>[0], { certificate: name }),
      });
    if (!status.ok) {
      firstProblem ??= gap(status.problem);
      continue;
    }
    const standing = standingAt(status.status, genTime);
    if (!standing.holds && 'revokedAt' in standing)
      return {
        kind: source.kind,
        der: fetched.der,
        revoked: said(
          standing.why === 'compromised'
            ? 'timestamp.validation.compromised'
            : 'timestamp.validation.revoked',
          { certificate: name, at: standing.revokedAt.toISOString() },
        ),
      };
    if (!standing.holds) {
      firstProblem ??= gap(standing.why);
      continue;
    }
    const { nextUpdate } = status.status;
    if (status.status.status === 'good' && nextUpdate)
      options.statuses.put(
        fingerprint,
        { kind: source.kind, der: fetched.der },
        nextUpdate.getTime(),
        options.now(),
      );
    return { kind: source.kind, der: fetched.der, revoked: null };
  }
  return { problem: firstProblem as Said };
}

/** The OCSP responders its AIA names, then the CRLs its distribution points name (HTTP only). */
function sourcesOf(certificate: pkijs.Certificate): Source[] {
  const extension = (id: string) => certificate.extensions?.find((e) => e.extnID === id)?.parsedValue;
  const http = (name: pkijs.GeneralName) =>
    name.type === URI && typeof name.value === 'string' && /^https?:\/\//i.test(name.value)
      ? [name.value]
      : [];
  const access = extension(OID.authorityInfoAccess) as pkijs.InfoAccess | undefined;
  const points = extension(OID.crlDistributionPoints) as pkijs.CRLDistributionPoints | undefined;
  const ocsp = (access?.accessDescriptions ?? [])
    .filter((description) => description.accessMethod === OID.ocsp)
    .flatMap((description) => http(description.accessLocation));
  const crl = (points?.distributionPoints ?? []).flatMap((point) =>
    Array.isArray(point.distributionPoint) ? point.distributionPoint.flatMap(http) : [],
  );
  return [
    ...ocsp.map((url) => ({ kind: 'ocsp' as const, url })),
    ...crl.map((url) => ({ kind: 'crl' as const, url })),
  ];
}

async function fetchStatus(
  source: Source,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  options: CollectOptions,
): Promise<{ der: Uint8Array } | { problem: Said }> {
  const host = hostOf(source.url);
  const signal = options.stop
    ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.stop])
    : AbortSignal.timeout(options.timeoutMs);
  try {
    let init: RequestInit = { method: 'GET', signal };
    if (source.kind === 'ocsp') {
      const request = new pkijs.OCSPRequest();
      await request.createForCertificate(certificate, { hashAlgorithm: 'SHA-1', issuerCertificate: issuer });
      init = {
        method: 'POST',
        headers: { 'content-type': 'application/ocsp-request', accept: 'application/ocsp-response' },
        body: new Uint8Array(request.toSchema(true).toBER(false)) as BodyInit,
        signal,
      };
    }
    const response = await options.fetch(source.url, init);
    if (!response.ok) {
      await response.body?.cancel();
      return { problem: said('timestamp.validation.httpStatus', { host, status: response.status }) };
    }
    const limit = source.kind === 'ocsp' ? MAX_OCSP_BYTES : MAX_CRL_BYTES;
    if (Number(response.headers.get('content-length') ?? 0) > limit) {
      await response.body?.cancel();
      return { problem: said('timestamp.validation.tooLarge', { host }) };
    }
    const der = new Uint8Array(await response.arrayBuffer());
    return der.byteLength > limit ? { problem: said('timestamp.validation.tooLarge', { host }) } : { der };
  } catch (error) {
    const name = (error as Error).name;
    return {
      problem:
        name === 'TimeoutError' || name === 'AbortError'
          ? said('timestamp.validation.timeout', { host, seconds: Math.round(options.timeoutMs / 1000) })
          : said('timestamp.validation.unreachable', { host }),
    };
  }
}
