import type { CertificationReading } from '../service/response-reader';
import type { Pacing } from '../service/retry-policy';
import { backoffDelay, pollDelay } from '../service/retry-policy';
import type { ServiceAnswer } from '../service/service-client';
import type { RowProblem } from '../store/queue';
import { said } from '../../protocol/said';
import { isKnownServiceState } from '../../protocol/service-states';

/**
 * What to do with the answer to one request, as pure functions of the answer, the row and the
 * clock: no I/O, so every branch is a unit test. The engine applies the decision to the queue.
 */
export interface PolicyContext {
  now: number;
  pacing: Pacing;
  random: () => number;
  /** Server errors in a row before a certification is failed for good. */
  maxSubmitAttempts: number;
  /** When the service counts as lost (offline, credentials refused): the planned probe; else null. */
  cutOffUntil: number | null;
}

export type SubmitDecision =
  | { kind: 'accepted'; nextPollAt: number; settleNow: boolean }
  | { kind: 'requeue'; at: number; countsAsAttempt: boolean }
  | { kind: 'fail' };

export function decideSubmit(
  result: ServiceAnswer<CertificationReading>,
  attempts: number,
  context: PolicyContext,
): SubmitDecision {
  const { now, pacing, random } = context;
  if (result.ok)
    return {
      kind: 'accepted',
      nextPollAt: now + pollDelay(0, pacing),
      settleNow: result.value.progress !== 'in_progress',
    };
  // Everything waits for the one probe; a lost service is not the row's fault.
  if (context.cutOffUntil !== null)
    return { kind: 'requeue', at: context.cutOffUntil, countsAsAttempt: false };
  // One lost connection is not an outage: this row alone tries again shortly.
  if (result.offline)
    return { kind: 'requeue', at: now + backoffDelay(1, pacing.submit, random), countsAsAttempt: false };
  if (result.retryable && attempts + 1 < context.maxSubmitAttempts)
    return {
      kind: 'requeue',
      at: now + Math.max(result.retryAfterMs ?? 0, backoffDelay(attempts, pacing.submit, random)),
      countsAsAttempt: true,
    };
  return { kind: 'fail' };
}

export type Problem = RowProblem;

/**
 * `problem`: why this look told us nothing (shown on the row while it keeps polling), null when
 * the look went well (clears it), undefined when there is nothing new to say (no answer at all).
 */
export type PollDecision =
  | { kind: 'settle' }
  | {
      kind: 'look-again';
      at: number;
      serviceState: string | null;
      rawResponse: string | null;
      problem?: Problem | null;
    }
  | { kind: 'fail'; error: Problem };

export function decidePoll(
  result: ServiceAnswer<CertificationReading>,
  polls: number,
  context: PolicyContext,
): PollDecision {
  const { now, pacing } = context;
  const later = now + pollDelay(polls + 1, pacing);
  if (result.ok) {
    if (result.value.progress !== 'in_progress') return { kind: 'settle' };
    const word = result.value.serviceState;
    return {
      kind: 'look-again',
      at: later,
      serviceState: word,
      rawResponse: result.raw,
      // A word we do not know may be the service's way of saying anything: say it, in its words.
      ...(word !== null && !isKnownServiceState(word)
        ? {
            problem: {
              code: 'unknown_service_state',
              said: said('service.unknownState', { word }),
            },
          }
        : {}),
    };
  }
  if (context.cutOffUntil !== null)
    return { kind: 'look-again', at: context.cutOffUntil, serviceState: null, rawResponse: null };
  if (result.offline) return { kind: 'look-again', at: later, serviceState: null, rawResponse: null };
  if (result.status === 404)
    return {
      kind: 'fail',
      error: { code: 'service_lost', said: said('service.lost') },
    };
  // The service answered, but not with something to go on (an HTML error page, a 200 that is not
  // JSON): keep looking, and say why on the row, with the raw answer.
  return {
    kind: 'look-again',
    at: now + Math.max(result.retryAfterMs ?? 0, pollDelay(polls + 1, pacing)),
    serviceState: null,
    rawResponse: result.raw ?? null,
    problem: { code: result.code, said: said('service.lastLookFailed', { reason: result.said }) },
  };
}

/** A final answer from the service: failed with its reason, or anchored (evidence to check). */
export function settlementOf(
  reading: CertificationReading,
): { kind: 'failed'; error: Problem } | { kind: 'anchored' } {
  if (reading.progress !== 'failed') return { kind: 'anchored' };
  return {
    kind: 'failed',
    error: {
      code: 'service_failed',
      said:
        reading.failureMessage === null
          ? said('service.reportsFailed', { state: reading.serviceState ?? 'failed' })
          : said('service.said', { said: reading.failureMessage }),
    },
  };
}
