import type { ReducedHashTree } from '../../../verifier/evidence-record/hash-tree';
import {
  chainsOfStamps,
  imprintAlgorithmOf,
  recordDer,
} from '../../../verifier/evidence-record/evidence-record';
import type { RecordParts, RenewalStamp } from '../../store/record-chains';
import { stampsOfRecord } from '../../store/record-chains';

export type { RecordParts } from '../../store/record-chains';

/**
 * A document's evidence record (DER): the batch's token over the tree its reduced tree leads to,
 * then each renewal over the token before it, in one chain (RFC 4998 §5.2); then, for each
 * hash-tree renewal, a chain of its own. Null when a token cannot be read as far as its imprint's
 * algorithm.
 */
export function evidenceRecordOf(parts: RecordParts, reduced: ReducedHashTree): Uint8Array | null {
  const chains = stampsOfRecord(parts, reduced);
  const algorithms = chains.flat().map((stamp) => imprintAlgorithmOf(stamp.token));
  if (algorithms.some((algorithm) => algorithm === null)) return null;
  return recordDer(chainsOfStamps(chains), algorithms as Uint8Array[]);
}

/** Every archive timestamp of a record after its first, oldest first: the receipt's readable copies. */
export const renewalsIn = (parts: RecordParts): RenewalStamp[] => [
  ...parts.renewals,
  ...(parts.later ?? []).flatMap((chain) => [chain.first, ...chain.renewals]),
];
