import type { ConfirmedTimestamp } from '../../store';
import { base64ToBytes } from '../../../verifier/bytes';
import type { ReducedHashTree } from '../../../verifier/evidence-record/hash-tree';
import { evidenceRecord, imprintAlgorithmOf } from '../../../verifier/evidence-record/evidence-record';
import { withValidationData } from '../../../verifier/evidence-record/token-validation';

/**
 * The batch's token as a record's first archive timestamp: with its chain and, once collected, its
 * validation data inside (RFC 4998 §5.2), so that whoever checks the record years later needs
 * nothing beside it.
 */
export function archiveToken(stamp: ConfirmedTimestamp): Uint8Array {
  const token = base64ToBytes(stamp.token);
  const kept = stamp.validation ?? { ocsp: [], crl: [] };
  return (
    withValidationData(token, stamp.chain.map(base64ToBytes), {
      ocsp: kept.ocsp.map(base64ToBytes),
      crl: kept.crl.map(base64ToBytes),
    }) ?? token
  );
}

/** A document's evidence record (DER) from its batch's timestamp, or null for a batch made before records. */
export function evidenceRecordOf(stamp: ConfirmedTimestamp, reduced: ReducedHashTree): Uint8Array | null {
  if (stamp.tree !== 'rfc4998') return null;
  const token = archiveToken(stamp);
  const algorithm = imprintAlgorithmOf(token);
  return algorithm && evidenceRecord(token, reduced, algorithm);
}
