import type { AuthorityStanding } from '../../protocol/receipt';
import { subjectName } from './token';
import { certificateOf } from './token-certificates';
import type { StatusRead } from './revocation';
import { readCrl, readOcspResponse, standingAt } from './revocation';

/** OCSP responses and CRLs kept beside a token, DER. */
export interface ValidationData {
  ocsp: readonly Uint8Array[];
  crl: readonly Uint8Array[];
}

export type ChainStanding =
  | { revoked: false; standing: AuthorityStanding }
  /** A certificate of the chain was revoked before genTime, or later for a compromise: the time does not hold. */
  | { revoked: true; certificate: string; revokedAt: string; compromise: boolean };

/**
 * Whether every certificate of a token's chain below its root was in good standing at `genTime`,
 * from the validation data kept beside the token alone (offline). Roots are trusted as they are.
 */
export async function chainStandingAt(
  chain: readonly Uint8Array[],
  data: ValidationData | null,
  genTime: Date,
): Promise<ChainStanding> {
  const notShown = (why: Extract<AuthorityStanding, { shown: false }>['why'], certificate: string | null) =>
    ({ revoked: false, standing: { shown: false, why, certificate } }) as const;
  if (!data) return notShown('not_kept', null);
  const sources = new Set<'ocsp' | 'crl'>();
  let revokedLater: Date | null = null;
  for (let index = 0; index + 1 < chain.length; index++) {
    const certificate = certificateOf(chain[index] as Uint8Array);
    const issuer = certificateOf(chain[index + 1] as Uint8Array);
    const name = subjectName(certificate);
    const read = await statusFor(data, certificate, issuer);
    if (!read.ok) return notShown(read.problem, name);
    const standing = standingAt(read.status, genTime);
    if (!standing.holds)
      return 'revokedAt' in standing
        ? {
            revoked: true,
            certificate: name,
            revokedAt: standing.revokedAt.toISOString(),
            compromise: standing.why === 'compromised',
          }
        : notShown(standing.why, name);
    sources.add(read.status.source);
    if (standing.revokedLater && (!revokedLater || standing.revokedLater < revokedLater))
      revokedLater = standing.revokedLater;
  }
  return {
    revoked: false,
    standing: { shown: true, sources: [...sources], revokedLater: revokedLater?.toISOString() ?? null },
  };
}

/** The first response, else the first list, that speaks for this certificate; or why none does. */
async function statusFor(
  data: ValidationData,
  certificate: Parameters<typeof readOcspResponse>[1],
  issuer: Parameters<typeof readOcspResponse>[2],
): Promise<StatusRead | { ok: false; problem: 'missing' }> {
  let firstProblem: StatusRead | null = null;
  for (const der of data.ocsp) {
    const read = await readOcspResponse(der, certificate, issuer);
    if (read.ok) return read;
    firstProblem ??= read;
  }
  for (const der of data.crl) {
    const read = await readCrl(der, certificate, issuer);
    if (read.ok) return read;
    firstProblem ??= read;
  }
  return firstProblem ?? { ok: false, problem: 'missing' };
}
