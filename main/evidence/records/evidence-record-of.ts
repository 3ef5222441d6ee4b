import type { ReducedHashTree } from '../../../verifier/evidence-record/hash-tree';
import {
  archiveTimeStampDer,
  chainDer,
  imprintAlgorithmOf,
  recordDer,
} from '../../../verifier/evidence-record/evidence-record';
import type { RenewalStamp } from '../../store/record-renewals';

/** What a document's record is made of: its batch's token as records carry it, and each renewal since. */
export interface RecordParts {
  first: Uint8Array;
  renewals: readonly RenewalStamp[];
}

/**
 * A document's evidence record (DER): the batch's token over the tree its reduced tree leads to,
 * then each renewal over the token before it, in one chain (RFC 4998 §5.2). Null when a token
 * cannot be read as far as its imprint's algorithm.
 */
export function evidenceRecordOf(parts: RecordParts, reduced: ReducedHashTree): Uint8Array | null {
  const stamps = [
    { token: parts.first, reduced },
    ...parts.renewals.map((renewal) => ({ token: renewal.token, reduced: renewal.reduced })),
  ];
  const algorithms = stamps.map((stamp) => imprintAlgorithmOf(stamp.token));
  if (algorithms.some((algorithm) => algorithm === null)) return null;
  return recordDer(
    [chainDer(stamps.map((stamp) => archiveTimeStampDer(stamp.token, stamp.reduced)))],
    algorithms as Uint8Array[],
  );
}
