import type { CertificationRow, EvidenceCheck } from '../../protocol/views';
import { SANDBOX_EVIDENCE_FORMAT, verifySandboxEvidence } from '../../verifier/sandbox-evidence';
import { nodeEd25519Verify } from './native-signature';

export interface LogKeySource {
  /** The log key pinned for this environment, fetching and pinning it on first use. */
  pinnedLogKey(): Promise<string | undefined>;
}

/** Verifies evidence whose format we know; anything else is kept raw and said to be unverifiable. */
export async function checkEvidence(
  row: Pick<CertificationRow, 'assetHash' | 'serviceId'>,
  evidence: unknown,
  keys: LogKeySource,
): Promise<EvidenceCheck> {
  if (evidence === null || evidence === undefined) {
    return {
      verification: 'unverifiable',
      message: 'The service sent no evidence to check; its answer is kept as received.',
    };
  }
  if ((evidence as { format?: unknown }).format !== SANDBOX_EVIDENCE_FORMAT) {
    return {
      verification: 'unverifiable',
      message: 'The evidence is in a format this app cannot check; it is kept as received.',
    };
  }
  const logPublicKey = await keys.pinnedLogKey();
  if (!logPublicKey) {
    return {
      verification: 'unverifiable',
      message: 'The log key needed to check the evidence could not be fetched; it is kept as received.',
    };
  }
  const verdict = verifySandboxEvidence(evidence, {
    assetHash: row.assetHash,
    certificationId: row.serviceId ?? undefined,
    logPublicKey,
    verifyEd25519: nodeEd25519Verify,
  });
  if (!verdict.verified)
    return { verification: 'invalid', message: `The evidence did not verify: ${verdict.message}` };
  return {
    verification: 'verified',
    message: `Evidence verified: entry ${verdict.leafIndex + 1} of ${verdict.treeSize} in the log, signed ${new Date(verdict.treeHeadTimestamp).toISOString()}.`,
  };
}
