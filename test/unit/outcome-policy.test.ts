import { describe, expect, it } from 'vitest';
import type { CertificationReading } from '../../main/service/response-reader';
import { DEFAULT_PACING } from '../../main/service/retry-policy';
import type { ServiceAnswer } from '../../main/service/service-client';
import type { PolicyContext } from '../../main/sync/outcome-policy';
import { decidePoll, decideSubmit, settlementOf } from '../../main/sync/outcome-policy';
import { said } from '../../protocol/said';
import { englishOf } from '../support/english';

const NOW = 1_000_000;
const context = (change: Partial<PolicyContext> = {}): PolicyContext => ({
  now: NOW,
  pacing: DEFAULT_PACING,
  random: () => 0.5,
  maxSubmitAttempts: 3,
  cutOffUntil: null,
  ...change,
});
const reading = (progress: CertificationReading['progress'], extra: Partial<CertificationReading> = {}) => ({
  serviceId: 'svc-1',
  serviceState: progress === 'in_progress' ? 'pending' : progress,
  progress,
  evidence: null,
  failureMessage: null,
  ...extra,
});
const ok = (value: CertificationReading): ServiceAnswer<CertificationReading> => ({
  ok: true,
  value,
  raw: '{}',
});
const failure = (
  change: Partial<Extract<ServiceAnswer<never>, { ok: false }>>,
): ServiceAnswer<CertificationReading> => ({
  ok: false,
  retryable: false,
  offline: false,
  code: 'service_error',
  said: said('service.timeout'),
  message: 'The service did not answer in time.',
  ...change,
});

describe('what to do with the answer to a submission', () => {
  it('records an accepted certification and settles it at once when the answer is already final', () => {
    expect(decideSubmit(ok(reading('in_progress')), 0, context())).toEqual({
      kind: 'accepted',
      nextPollAt: NOW + DEFAULT_PACING.pollFirstMs,
      settleNow: false,
    });
    expect(decideSubmit(ok(reading('anchored')), 0, context())).toMatchObject({ settleNow: true });
  });

  it('waits for the planned probe while the service is cut off, without counting it against the row', () => {
    expect(decideSubmit(failure({ offline: true }), 2, context({ cutOffUntil: NOW + 7000 }))).toEqual({
      kind: 'requeue',
      at: NOW + 7000,
      countsAsAttempt: false,
    });
  });

  it('tries a single lost connection again soon, without counting it', () => {
    const decision = decideSubmit(failure({ offline: true, retryable: true }), 0, context());
    expect(decision).toMatchObject({ kind: 'requeue', countsAsAttempt: false });
  });

  it('backs off on server errors, honouring Retry-After, until the attempts run out', () => {
    const busy = failure({ retryable: true, status: 503, retryAfterMs: 60_000 });
    expect(decideSubmit(busy, 0, context())).toEqual({
      kind: 'requeue',
      at: NOW + 60_000,
      countsAsAttempt: true,
    });
    expect(decideSubmit(busy, 2, context())).toEqual({ kind: 'fail' });
  });

  it('fails at once on an answer that will not change (a refused request)', () => {
    expect(decideSubmit(failure({ status: 422 }), 0, context())).toEqual({ kind: 'fail' });
  });
});

describe('what to do with the answer to a status look', () => {
  it('looks again later, slower each time, keeping what the service said', () => {
    expect(decidePoll(ok(reading('in_progress')), 3, context())).toEqual({
      kind: 'look-again',
      at: NOW + DEFAULT_PACING.pollFirstMs * 16,
      serviceState: 'pending',
      rawResponse: '{}',
    });
  });

  it('says what the service said when its state is a word we do not know, while it keeps asking', () => {
    const decision = decidePoll(ok(reading('in_progress', { serviceState: 'notarising' })), 0, context());
    expect(decision).toMatchObject({
      kind: 'look-again',
      serviceState: 'notarising',
      problem: { code: 'unknown_service_state' },
    });
    expect(englishOf(decision.kind === 'look-again' ? decision.problem?.said : null)).toContain(
      'The service says this certification is “notarising”',
    );
    expect(
      decidePoll(ok(reading('in_progress', { serviceState: 'Processing' })), 0, context()),
    ).not.toHaveProperty('problem');
  });

  it('settles a final answer, and fails a certification the service no longer knows', () => {
    expect(decidePoll(ok(reading('anchored')), 0, context())).toEqual({ kind: 'settle' });
    expect(decidePoll(failure({ status: 404 }), 0, context())).toMatchObject({
      kind: 'fail',
      error: { code: 'service_lost' },
    });
  });

  it('keeps polling through server errors and outages', () => {
    expect(decidePoll(failure({ status: 500, retryable: true }), 0, context())).toMatchObject({
      kind: 'look-again',
    });
    expect(decidePoll(failure({ offline: true }), 0, context({ cutOffUntil: NOW + 500 }))).toMatchObject({
      kind: 'look-again',
      at: NOW + 500,
    });
  });
});

describe('a final answer', () => {
  it("fails with the service's own words, or anchors", () => {
    const wordsOfFailure = (settlement: ReturnType<typeof settlementOf>) =>
      settlement.kind === 'failed' ? [settlement.error.code, englishOf(settlement.error.said)] : null;
    // The service's own words are kept, quoted and marked as the service's.
    expect(wordsOfFailure(settlementOf(reading('failed', { failureMessage: 'hash rejected' })))).toEqual([
      'service_failed',
      'The service said: “hash rejected”',
    ]);
    expect(wordsOfFailure(settlementOf(reading('failed', { serviceState: 'REJECTED' })))).toEqual([
      'service_failed',
      'The service reports this certification as REJECTED.',
    ]);
    expect(settlementOf(reading('anchored'))).toEqual({ kind: 'anchored' });
  });
});
