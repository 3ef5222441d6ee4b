import { describe, expect, it } from 'vitest';
import { IllegalTransition, LOCAL_STATES, assertTransition, canTransition } from '../../main/store/states';

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

  it('refuses anything else with a clear error', () => {
    expect(() => assertTransition('anchored', 'queued')).toThrow(IllegalTransition);
    expect(() => assertTransition('queued', 'anchored')).toThrow(
      'A certification cannot go from queued to anchored.',
    );
  });
});
