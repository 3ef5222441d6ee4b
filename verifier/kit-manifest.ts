import { base64ToBytes, bytesToBase64, bytesToHex } from './bytes';

/**
 * A kit sealed whole is an ASiC-E container (ETSI EN 319 162-1): `mimetype` first, then the kit's
 * files, and in META-INF/ an ASiCManifest listing each file with its SHA-256 and an RFC 3161 token
 * over that manifest. One token seals every file: a kit of 10,000 costs one request.
 */
export const ASIC_E_MIMETYPE = 'application/vnd.etsi.asic-e+zip';
export const KIT_MIMETYPE_FILE = 'mimetype';
export const KIT_MANIFEST_FILE = 'META-INF/ASiCManifest.xml';
export const KIT_TOKEN_FILE = 'META-INF/timestamp.tst';
/** The sealing authority's certificates, signer first, and its root apart: what `openssl ts -verify` is given. */
export const KIT_SEAL_CHAIN_FILE = 'META-INF/timestamp-chain.pem';
export const KIT_SEAL_ROOT_FILE = 'META-INF/timestamp-root.pem';
/** The sealing authority's own certificate: what `openssl ocsp -cert` asks about. */
export const KIT_SEAL_SIGNER_FILE = 'META-INF/timestamp-signer.pem';
/**
 * What the authority's issuers signed about its certificates when it sealed (long-term
 * validation): OCSP responses and CRLs, DER, numbered from 1. Outside the manifest, as the token
 * is: each is signed by its issuer, and proves itself.
 */
export const kitSealStatusFile = (kind: 'ocsp' | 'crl', n: number) =>
  kind === 'ocsp' ? `META-INF/timestamp-ocsp-${n}.der` : `META-INF/timestamp-crl-${n}.crl`;
/**
 * Beside the manifest of a kit saved while its authority could not seal it: what happened, in
 * words. Evidence Desk removes it when it adds the seal (META-INF/timestamp.tst).
 */
export const KIT_SEAL_WAITING_FILE = 'META-INF/seal-waiting.txt';
export const KIT_SEAL_STATUS_PATTERN = /^META-INF\/timestamp-(ocsp|crl)-(\d+)\.(?:der|crl)$/;

const SHA256_URI = 'http://www.w3.org/2001/04/xmlenc#sha256';

/** A file the seal covers: its path in the kit ("certifications/A.pdf.receipt.json") and SHA-256. */
export interface SealedFile {
  path: string;
  sha256: Uint8Array;
}

/** Whether a kit's file is one its seal covers: every file but the container's own. */
export const coveredBySeal = (path: string): boolean =>
  path !== KIT_MIMETYPE_FILE && !path.startsWith('META-INF/');

/** A path as a manifest's URI: each segment percent-encoded, so spaces and "&" stay plain XML. */
const uriOf = (path: string) => path.split('/').map(encodeURIComponent).join('/');

const dataObjectReference = ({ path, sha256 }: SealedFile) =>
  `<asic:DataObjectReference URI="${uriOf(path)}"><ds:DigestMethod Algorithm="${SHA256_URI}"/><ds:DigestValue>${bytesToBase64(sha256)}</ds:DigestValue></asic:DataObjectReference>`;

const manifestOf = (signature: string, references: readonly string[]) =>
  [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    '<asic:ASiCManifest xmlns:asic="http://uri.etsi.org/02918/v1.2.1#" xmlns:ds="http://www.w3.org/2000/09/xmldsig#">',
    signature,
    ...references,
    '</asic:ASiCManifest>',
    '',
  ].join('\n');

/** The manifest, files in name order. */
export function asicManifest(files: readonly SealedFile[]): string {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return manifestOf(
    `<asic:SigReference URI="${KIT_TOKEN_FILE}" MimeType="application/vnd.etsi.timestamp-token"/>`,
    sorted.map(dataObjectReference),
  );
}

/**
 * The n-th evidence record of a kit's documents in META-INF/, as EN 319 162-1 puts records in an
 * ASiC-E container: the record (RFC 4998, DER) and the ASiCEvidenceRecordManifest naming what it covers.
 */
export const kitRecordFiles = (n: number) => {
  const number = String(n).padStart(3, '0');
  return {
    record: `META-INF/evidencerecord${number}.ers`,
    manifest: `META-INF/ASiCEvidenceRecordManifest${number}.xml`,
  };
};

/**
 * An evidence record's manifest: the record, and the data object it covers with its SHA-256 (a
 * document, named as certified, which travels apart from the kit; or a receipt in the kit).
 */
export const evidenceRecordManifest = (recordPath: string, covers: SealedFile): string =>
  manifestOf(`<asic:SigReference URI="${uriOf(recordPath)}"/>`, [dataObjectReference(covers)]);

/** What a manifest lists: path → SHA-256 in hex; or why it cannot be read. */
export type ManifestReading = { files: Map<string, string> } | { unreadable: string };

/**
 * Reads a manifest as another's kit may hold it (hostile input): each DataObjectReference with its
 * URI and SHA-256 digest, found by scanning forward only, so any text costs linear time. A digest
 * other than SHA-256, a path listed twice or an element left open makes it unreadable.
 */
export function readAsicManifest(text: string): ManifestReading {
  const files = new Map<string, string>();
  const opening = /<(?:[\w.-]+:)?DataObjectReference\b/g;
  for (let match = opening.exec(text); match; match = opening.exec(text)) {
    const tagEnd = text.indexOf('>', match.index);
    const close = /<\/(?:[\w.-]+:)?DataObjectReference\s*>/g;
    close.lastIndex = tagEnd;
    const closing = tagEnd < 0 ? null : close.exec(text);
    if (!closing) return { unreadable: 'an entry of the manifest is not closed' };
    const tag = text.slice(match.index, tagEnd);
    const body = text.slice(tagEnd + 1, closing.index);
    const uri = /\sURI="([^"]*)"/.exec(tag)?.[1];
    const algorithm = /Algorithm="([^"]*)"/.exec(body)?.[1];
    // [^<]* and a test after, not one pattern with overlapping classes: no backtracking on hostile text.
    const digest = /<(?:[\w.-]+:)?DigestValue>([^<]*)</.exec(body)?.[1]?.replace(/\s+/g, '');
    if (uri === undefined || !digest || !/^[A-Za-z0-9+/]+={0,2}$/.test(digest))
      return { unreadable: 'an entry of the manifest has no file or digest' };
    if (algorithm !== SHA256_URI)
      return { unreadable: `a digest other than SHA-256 (${algorithm ?? 'none'})` };
    let path: string;
    try {
      path = decodeURIComponent(uri);
    } catch {
      return { unreadable: `a file name that is not a valid URI (${uri.slice(0, 80)})` };
    }
    const sha256 = base64ToBytes(digest);
    if (sha256.length !== 32) return { unreadable: `a SHA-256 digest of ${sha256.length} bytes for ${path}` };
    if (files.has(path)) return { unreadable: `${path} is listed twice` };
    files.set(path, bytesToHex(sha256));
    opening.lastIndex = closing.index + closing[0].length;
  }
  return { files };
}
