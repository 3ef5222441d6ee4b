import type { CertificationRow, EvidenceCheck } from '../../protocol/views';
import { SANDBOX_EVIDENCE_FORMAT, verifySandboxEvidence } from '../../verifier/sandbox-evidence';
import { logKeyFingerprint } from '../../verifier/bytes';
import type { KeyAnswer, KeyChange, TreeHead } from './log-trust';
import { keyChangeReason } from './log-trust';
import { nodeEd25519Verify } from '../tools/native-signature';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';

export interface LogKeySource {
  /** The log key trusted for this environment (given, or pinned on first use), or why there is none. */
  pinnedLogKey(): Promise<KeyAnswer>;
  /** Evidence named another key: has the service changed its key? */
  noticeOtherKey(): Promise<KeyChange | null>;
  /** A verified tree head, checked against the newest seen: the log must only grow. */
  checkTreeHead(fingerprint: string, head: TreeHead): Promise<{ ok: true } | { ok: false; message: Said }>;
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
      message: said('evidence.none'),
    };
  }
  if ((evidence as { format?: unknown }).format !== SANDBOX_EVIDENCE_FORMAT) {
    return {
      verification: 'unverifiable',
      message: said('evidence.unknownFormat'),
    };
  }
  const answer = await keys.pinnedLogKey();
  if (answer.key === undefined)
    return {
      verification: 'unverifiable',
      message: said('evidence.keptAsReceived', { reason: answer.reason }),
    };
  const logPublicKey = answer.key;
  const verdict = verifySandboxEvidence(evidence, {
    assetHash: row.assetHash,
    certificationId: row.serviceId ?? undefined,
    logPublicKey,
    verifyEd25519: nodeEd25519Verify,
  });
  if (!verdict.verified) {
    const change = verdict.code === 'key_id_mismatch' ? await keys.noticeOtherKey() : null;
    if (change) return { verification: 'unverifiable', message: keyChangeReason(change) };
    return {
      verification: 'invalid',
      message: said('evidence.didNotVerify', { reason: said(`evidence.failure.${verdict.code}`) }),
    };
  }
  const head = (evidence as { signed_tree_head: TreeHead }).signed_tree_head;
  const history = await keys.checkTreeHead(logKeyFingerprint(logPublicKey), head);
  if (!history.ok) return { verification: 'invalid', message: history.message };
  return {
    verification: 'verified',
    message: said('evidence.verified', {
      entry: verdict.leafIndex + 1,
      size: verdict.treeSize,
      signedAt: new Date(verdict.treeHeadTimestamp).toISOString(),
    }),
  };
}
