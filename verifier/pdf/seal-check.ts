import { checkTimestampToken } from '../timestamp/token';
import type { SealBytes } from './certificate-pdf';
import type { SealVerdict } from '../../protocol/receipt';

/**
 * Checks a certificate's document timestamp against the bytes it covers and the roots trusted
 * here. A seal that no longer covers the whole file is broken, even when the token itself holds:
 * whatever was added after it (an incremental update) is vouched for by nobody.
 */
export async function checkSeal(
  seal: SealBytes | null,
  trustedRoots: readonly string[],
): Promise<SealVerdict> {
  if (!seal) return { state: 'unsealed' };
  if (!seal.coversWholeFile || seal.token.length === 0) return { state: 'broken' };
  const check = await checkTimestampToken(seal.token, { data: seal.signed, certificates: [], trustedRoots });
  if (check.ok) {
    // The authority's standing then, from its issuers' answers kept in the file (PAdES B-LT).
    const { chainStandingAt } = await import('../timestamp/chain-standing');
    const standing = await chainStandingAt(check.chain, seal.validation ?? null, check.genTime);
    // A seal by an authority revoked before it sealed (or whose key was compromised) is no seal.
    if (standing.revoked) return { state: 'broken' };
    return {
      state: 'sealed',
      authority: check.authority,
      genTime: check.genTime.toISOString(),
      standing: standing.standing,
    };
  }
  if (check.check === 'untrusted')
    return { state: 'untrusted', authority: check.authority, rootFingerprint: check.rootFingerprint };
  return { state: 'broken' };
}

/** The seal in English, for the verifier's readers (the app and the CLI word it from the state). */
export const SEAL_WORDS: Record<SealVerdict['state'], string> = {
  unsealed: 'The certificate PDF is not sealed: only the receipt inside it was checked.',
  sealed: 'The certificate PDF is sealed and unchanged since.',
  untrusted:
    'The certificate PDF is sealed by an authority you have not trusted: its seal was not relied on.',
  broken:
    'The certificate PDF was changed after it was sealed: its seal no longer holds. The receipt inside may still prove the document, but do not rely on anything else in this PDF.',
};

/** The headline when the receipt verifies but the PDF around it changed after sealing: never a plain "Verified". */
export const SEAL_BROKEN_HEADLINE =
  'Verified against the receipt inside, but this certificate PDF was changed after it was sealed';
