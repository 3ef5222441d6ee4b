import type { Logger } from '../logging/logger';
import type { Fetch } from '../service/network';
import type { CertificateStatusStore, TimestampBatches, UnvalidatedBatch } from '../store';
import { said } from '../../protocol/said';

export interface BatchValidationDeps {
  batches: TimestampBatches;
  statuses: CertificateStatusStore;
  fetchFor(profileId: string): Fetch;
  log: Logger;
  timeoutMs: number;
  /** When to try again after `attempts` failures. */
  retryAt(attempts: number): number;
  now: () => number;
}

/**
 * What checking a kept token later needs (its chain's OCSP responses or CRLs): kept on the batch,
 * or the reason it is not yet, and tried again later. The token is kept whatever happens here.
 */
export async function validateBatch(
  batch: UnvalidatedBatch,
  stop: AbortSignal,
  deps: BatchValidationDeps,
): Promise<void> {
  const { collectValidationData } = await import('./validation-collector');
  // A fault of ours here must not stop the round, nor have it ask again at once: it is said, and tried later.
  const collected = await collectValidationData(batch.chain, new Date(batch.genTime), {
    fetch: deps.fetchFor(batch.profileId),
    statuses: deps.statuses,
    timeoutMs: deps.timeoutMs,
    stop,
    now: deps.now,
  }).catch((error: unknown) => {
    deps.log.log('error', 'timestamp.validation_failed', { batch: batch.id, error: String(error) });
    return { ok: false as const, problem: said('calls.internal') };
  });
  if (collected.ok) {
    deps.batches.keepValidation(batch.id, collected.data, collected.finding, deps.now());
    return;
  }
  deps.batches.validationNotYet(
    batch.id,
    said('timestamp.validation.notCollected', { why: collected.problem }),
    // Ended by closing: due at once for whoever runs next.
    stop.aborted ? deps.now() : deps.retryAt(batch.attempts),
    deps.now(),
  );
  deps.log.log('warn', 'timestamp.validation_not_yet', { batch: batch.id, problem: collected.problem.key });
}
