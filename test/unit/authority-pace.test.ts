import { describe, expect, it } from 'vitest';
import { AuthorityPace } from '../../main/timestamps/authority-pace';

const URL = 'https://tsa.example.com/';

describe('an authority’s pace', () => {
  it('asks nothing for a request stopped before or while it waits its turn, and does not count it', async () => {
    const pace = new AuthorityPace();
    const asked: string[] = [];
    const ask = (what: string) => async () => void asked.push(what);
    expect(await pace.turn(URL, 1_000, ask('first'))).toEqual({ answer: undefined });
    const next = pace.nextAt(URL);

    // Cancelled already: not put in line.
    expect(await pace.turn(URL, 1_000, ask('cancelled'), { stop: AbortSignal.abort() })).toEqual({
      stopped: true,
    });
    // Cancelled a tenth of a second into its wait for the pace (a second): ends then, not asked.
    const stop = new AbortController();
    const started = Date.now();
    setTimeout(() => stop.abort(), 100);
    expect(await pace.turn(URL, 1_000, ask('waited'), { stop: stop.signal })).toEqual({ stopped: true });
    expect(Date.now() - started).toBeLessThan(900);

    expect(asked).toEqual(['first']);
    expect(pace.nextAt(URL)).toBe(next);
  });
});
