import type { KitSeal } from '../../protocol/sets';
import { LIMITS } from '../../protocol/limits';
import {
  KIT_MANIFEST_FILE,
  KIT_SEAL_CHAIN_FILE,
  KIT_SEAL_ROOT_FILE,
  KIT_SEAL_STATUS_PATTERN,
  KIT_SEAL_WAITING_FILE,
  KIT_TOKEN_FILE,
  coveredBySeal,
  readAsicManifest,
} from '../kit-manifest';
import { certificateFingerprint, certificatesFromPem } from '../timestamp/certificate-bytes';
import type { Trust } from '../verify-receipt';

/** The files of a kit's seal, whose bytes the check reads (each small: bounded by LIMITS.kitSealPartBytes). */
const SEAL_PARTS = [KIT_MANIFEST_FILE, KIT_TOKEN_FILE, KIT_SEAL_CHAIN_FILE, KIT_SEAL_ROOT_FILE];

/**
 * A kit's seal checked as its files go by, the same in Evidence Desk and verify.html: the SHA-256
 * of every file it covers, the bytes of its own files, then one check of the token over the
 * manifest and of each file against the manifest. Nothing is trusted for being in the kit unless
 * the person checking chose to trust the kit's roots.
 */
export class KitSealReader {
  private readonly files = new Map<string, string>();
  private readonly parts = new Map<string, Uint8Array>();
  private tooLarge: string | undefined;
  /** The kit says its seal was still waiting for its authority when it was saved. */
  private sealWaiting = false;

  /** Whether the check wants this file's bytes (one of the seal's own), not only its SHA-256. */
  static wantsBytes(path: string): boolean {
    return SEAL_PARTS.includes(path) || KIT_SEAL_STATUS_PATTERN.test(path);
  }

  /** A file of the kit: its path inside the kit ("certifications/A.pdf.receipt.json") and its SHA-256 in hex. */
  file(path: string, sha256Hex: string): void {
    if (path === KIT_SEAL_WAITING_FILE) this.sealWaiting = true;
    if (coveredBySeal(path)) this.files.set(path, sha256Hex);
  }

  /** One of the seal's own files, as read. */
  part(path: string, bytes: Uint8Array): void {
    if (bytes.length > LIMITS.kitSealPartBytes) this.tooLarge = path;
    else this.parts.set(path, bytes);
  }

  async check(trust: Trust, { trustKit }: { trustKit: boolean }): Promise<KitSeal> {
    const manifest = this.parts.get(KIT_MANIFEST_FILE);
    const token = this.parts.get(KIT_TOKEN_FILE);
    if (this.tooLarge) return { state: 'broken', why: `${this.tooLarge} is larger than any seal's` };
    if (!manifest && !token) return { state: 'unsealed' };
    // Saved before its authority answered, and not sealed since: not sealed, and not broken either.
    if (manifest && !token && this.sealWaiting) return { state: 'unsealed' };
    if (!manifest || !token)
      return { state: 'broken', why: `${manifest ? KIT_TOKEN_FILE : KIT_MANIFEST_FILE} is missing` };
    const text = (part: string) => new TextDecoder().decode(this.parts.get(part) ?? new Uint8Array());
    const roots = certificatesFromPem(text(KIT_SEAL_ROOT_FILE));
    const certificates = [...certificatesFromPem(text(KIT_SEAL_CHAIN_FILE)), ...roots];
    const trustedRoots = [...trust.tsaRoots, ...(trustKit ? roots.map(certificateFingerprint) : [])];
    // pkijs is loaded when a kit has a seal to check, not when a command or page starts.
    const { checkTimestampToken } = await import('../timestamp/token');
    const checked = await checkTimestampToken(token, { data: manifest, certificates, trustedRoots });
    if (!checked.ok && checked.check === 'untrusted')
      return { state: 'untrusted', authority: checked.authority, rootFingerprint: checked.rootFingerprint };
    if (!checked.ok) return { state: 'broken', why: checked.message };
    // The authority's standing when it sealed, from what its issuers signed (kept beside the token).
    const kept = (kind: string) =>
      [...this.parts]
        .filter(([path]) => KIT_SEAL_STATUS_PATTERN.exec(path)?.[1] === kind)
        .map(([, bytes]) => bytes);
    const [ocsp, crl] = [kept('ocsp'), kept('crl')];
    const { chainStandingAt } = await import('../timestamp/chain-standing');
    const standing = await chainStandingAt(
      checked.chain,
      ocsp.length + crl.length > 0 ? { ocsp, crl } : null,
      checked.genTime,
    );
    if (standing.revoked)
      return {
        state: 'broken',
        why: `the certificate of ${standing.certificate} was revoked on ${standing.revokedAt}${standing.compromise ? ' because its key was compromised' : ', before it sealed the kit'}`,
      };
    const listed = readAsicManifest(new TextDecoder().decode(manifest));
    if ('unreadable' in listed) return { state: 'broken', why: listed.unreadable };
    const sorted = (paths: Iterable<string>) => [...paths].sort();
    return {
      state: 'sealed',
      authority: checked.authority,
      genTime: checked.genTime.toISOString(),
      files: listed.files.size,
      changed: sorted(
        [...listed.files]
          .filter(([path, sha]) => this.files.has(path) && this.files.get(path) !== sha)
          .map(([path]) => path),
      ),
      removed: sorted([...listed.files.keys()].filter((path) => !this.files.has(path))),
      added: sorted([...this.files.keys()].filter((path) => !listed.files.has(path))),
      standing: standing.standing,
    };
  }
}
