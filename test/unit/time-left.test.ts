import { describe, expect, it } from 'vitest';
import { translatorFor } from '../../protocol/locales';
import { leftAtPace, timeLeftWords } from '../../renderer/src/time-left';

const MINUTE = 60_000;
const en = translatorFor('en', 'app');
const de = translatorFor('de', 'app');

// What a long kit or set check says it still needs: never "about 76 minutes" or "About 4,000 s".
describe('the time left', () => {
  it('is said as a person says it, in English and German', () => {
    const said = (minutes: number) => timeLeftWords(minutes * MINUTE, en);
    expect(said(0.5)).toBe('less than a minute left');
    expect(said(1)).toBe('about 1 minute left');
    expect(said(42)).toBe('about 42 minutes left');
    expect(said(76)).toBe('about 1 hour 15 minutes left');
    expect(said(118)).toBe('about 2 hours left');
    expect(said(67 * 60)).toBe('about 67 hours left');
    expect(timeLeftWords(76 * MINUTE, de)).toBe('noch etwa 1 Stunde 15 Minuten');
    expect(timeLeftWords(200 * MINUTE, de)).toBe('noch etwa 3 Stunden');
  });

  it('is nothing until a few seconds of work say what the pace is', () => {
    expect(leftAtPace(2000, 50, 1000)).toBeNull();
    expect(leftAtPace(10_000, 0, 1000)).toBeNull();
    expect(leftAtPace(10_000, 100, 900)).toBe(90_000);
  });
});
