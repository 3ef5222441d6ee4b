import { LIMITS } from '../../protocol/limits';
import { sha256 } from '@noble/hashes/sha2.js';
import * as pkijs from 'pkijs';
import { certificateFingerprint } from './certificate-bytes';
import { bytesToHex, toArrayBuffer } from '../bytes';

/**
 * The chain from a timestamp's signer to a root trusted here, valid at the token's time. Built
 * and checked by pkijs once per process for an authority's certificates, and kept: an authority
 * signs every token with the same ones.
 */

export { certificateFingerprint };

// Encoding a certificate again costs about what parsing it did; tokens share parsed certificates
// (token-certificates.ts), so each is encoded once. Callers only read the bytes.
const encoded = new WeakMap<pkijs.Certificate, Uint8Array>();

export function derOf(certificate: pkijs.Certificate): Uint8Array {
  let der = encoded.get(certificate);
  if (!der) {
    der = new Uint8Array(certificate.toSchema(false).toBER(false));
    encoded.set(certificate, der);
  }
  return der;
}

/** Where the chain may come from, and what is trusted (see TokenExpectation). */
export interface ChainTrust {
  /** Certificates to build the chain from besides those in the token, DER. */
  certificates: readonly Uint8Array[];
  /** SHA-256 fingerprints (hex) of the root certificates trusted here. */
  trustedRoots: readonly string[];
}

export type ChainOutcome =
  { chain: Uint8Array[]; rootFingerprint: string } | { untrustedRoot: string } | { broken: string };

/** A chain found before, and the times at which every certificate on it was valid. */
interface KnownChain {
  chain: Uint8Array[];
  rootFingerprint: string;
  validFrom: Date;
  validUntil: Date;
}

// An authority signs every token with the same certificates: its chain is built and checked once
// per process, not once for each of the 10,000 certificates of a kit (or receipts of a folder).
// Kept by the exact bytes of every certificate involved and the roots trusted, so any other
// certificate, pool or trust is checked afresh; and used only at times the whole chain was valid.
const knownChains = new Map<string, KnownChain>();
const CHAINS_KEPT = 64;

/** The signer's chain to a trusted root at `genTime`, or the root it leads to instead, or why none holds. */
export async function trustedChain(
  signer: pkijs.Certificate,
  tokenCertificates: pkijs.Certificate[],
  trust: ChainTrust,
  genTime: Date,
): Promise<ChainOutcome> {
  // A pool of thousands is an attack on the path search, not an authority's chain (docs/security.md).
  if (tokenCertificates.length + trust.certificates.length > 2 * LIMITS.chainCertificates)
    return { broken: `more than ${2 * LIMITS.chainCertificates} certificates to build it from` };
  const key = chainKey(signer, tokenCertificates, trust);
  const known = knownChains.get(key);
  if (known && genTime >= known.validFrom && genTime <= known.validUntil)
    return { chain: known.chain, rootFingerprint: known.rootFingerprint };

  const pool = [
    ...tokenCertificates,
    ...trust.certificates.map(parseCertificate).filter((c): c is pkijs.Certificate => c !== undefined),
  ];
  const top = certificateFingerprint(derOf(topOfChain(signer, pool)));
  if (!trust.trustedRoots.includes(top)) return { untrustedRoot: top };
  const trusted = pool.filter((c) => trust.trustedRoots.includes(certificateFingerprint(derOf(c))));
  const engine = new pkijs.CertificateChainValidationEngine({
    trustedCerts: trusted,
    certs: [...pool.filter((c) => !trusted.includes(c)), signer],
    checkDate: genTime,
  });
  const result = await engine.verify().catch((error: unknown) => ({
    result: false,
    resultMessage: error instanceof Error ? error.message : String(error),
    certificatePath: undefined,
  }));
  if (!result.result || !result.certificatePath?.length)
    return { broken: result.resultMessage || 'no valid path' };
  const path = result.certificatePath;
  const chain = path.map(derOf);
  const rootFingerprint = certificateFingerprint(chain[chain.length - 1] as Uint8Array);
  if (knownChains.size >= CHAINS_KEPT) knownChains.clear();
  knownChains.set(key, {
    chain,
    rootFingerprint,
    validFrom: new Date(Math.max(...path.map((c) => c.notBefore.value.getTime()))),
    validUntil: new Date(Math.min(...path.map((c) => c.notAfter.value.getTime()))),
  });
  return { chain, rootFingerprint };
}

/**
 * What a chain rests on, exactly: the signer, every other certificate it could be built from (each
 * by the hash of its signed part and its signature, which a parsed certificate keeps as read), and
 * the roots trusted.
 */
function chainKey(
  signer: pkijs.Certificate,
  tokenCertificates: pkijs.Certificate[],
  trust: ChainTrust,
): string {
  const read = (c: pkijs.Certificate) =>
    bytesToHex(sha256(new Uint8Array(c.tbsView))) +
    bytesToHex(sha256(new Uint8Array(c.signatureValue.valueBlock.valueHexView)));
  return [
    read(signer),
    [...tokenCertificates.map(read), ...trust.certificates.map(certificateFingerprint)].sort().join(','),
    [...trust.trustedRoots].sort().join(','),
  ].join('|');
}

function parseCertificate(der: Uint8Array): pkijs.Certificate | undefined {
  try {
    return pkijs.Certificate.fromBER(toArrayBuffer(der));
  } catch {
    return undefined;
  }
}

/** The highest certificate reachable from the signer by issuer names: the root to name when untrusted. */
function topOfChain(signer: pkijs.Certificate, pool: pkijs.Certificate[]): pkijs.Certificate {
  let current = signer;
  for (let steps = 0; steps < 8; steps++) {
    if (current.issuer.isEqual(current.subject)) return current;
    const issuer = pool.find((c) => c !== current && c.subject.isEqual(current.issuer));
    if (!issuer) return current;
    current = issuer;
  }
  return current;
}
