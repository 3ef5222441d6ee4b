import { describe, expect, it } from 'vitest';
import { LOCAL_STATES, canTransition, isRemovable, isWaiting } from '../../protocol/states';

describe('the local state machine', () => {
  it('allows exactly the documented moves', () => {
    const allowed = LOCAL_STATES.flatMap((from) =>
      LOCAL_STATES.filter((to) => canTransition(from, to)).map((to) => `${from}→${to}`),
    );
    expect(allowed).toEqual([
      'queued→submitting',
      'submitting→queued',
      'submitting→pending',
      'submitting→failed',
      'pending→anchored',
      'pending→failed',
      'failed→queued',
    ]);
  });

  it('calls queued, sending and pending "waiting", and nothing else', () => {
    expect(LOCAL_STATES.filter(isWaiting)).toEqual(['queued', 'submitting', 'pending']);
  });

  it('lets a person remove only what the service never took, or what failed for good', () => {
    expect(isRemovable({ state: 'queued', serviceId: null })).toBe(true);
    expect(isRemovable({ state: 'failed', serviceId: 'svc-1' })).toBe(true);
    // Sent back to the queue after the service accepted it once (a retry): it is on record there.
    expect(isRemovable({ state: 'queued', serviceId: 'svc-1' })).toBe(false);
    for (const state of ['submitting', 'pending', 'anchored'] as const)
      expect(isRemovable({ state, serviceId: null })).toBe(false);
  });
});
