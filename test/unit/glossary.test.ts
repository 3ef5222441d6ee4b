import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { en } from '../../protocol/locales/en';
import { de } from '../../protocol/locales/de';
import { sayerFor } from '../../protocol/locales';
import { said } from '../../protocol/said';
import { stateSaid } from '../../protocol/states';

// docs/glossary.md is the one name per thing: each catalogue uses its terms, and never the words
// the glossary rules out (a reviewer found "Charge", "Log", "Baumkopf", "asset type" in them).
const rows = readFileSync('docs/glossary.md', 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| Concept') && !line.startsWith('| ---'))
  .map((line) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );

/** Every string of a catalogue, with the key it is at. */
function* strings(node: unknown, at = ''): Generator<[string, string]> {
  if (typeof node === 'string') yield [at, node];
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) yield* strings(value, at ? `${at}.${key}` : key);
}

// A word on its own, not part of another, nor of a command-line option (--log-key).
const wholeWord = (term: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}-])${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu');

const catalogues = { en: [...strings(en)], de: [...strings(de)] };

describe('the glossary (docs/glossary.md)', () => {
  it('has its rows', () => expect(rows.length).toBeGreaterThan(15));

  it.each(rows)(
    '%s: each catalogue uses its term and never the words ruled out',
    (concept, english, german, notEnglish, notGerman) => {
      for (const [language, term, ruledOut] of [
        ['en', english, notEnglish],
        ['de', german, notGerman],
      ] as const) {
        const texts = catalogues[language];
        expect(
          texts.some(([, text]) => wholeWord(term as string).test(text)),
          `${language}: "${term}" (${concept}) is never used`,
        ).toBe(true);
        for (const word of (ruledOut as string)
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean))
          expect(
            texts.filter(([, text]) => wholeWord(word).test(text)).map(([key]) => key),
            `${language}: "${word}" is ruled out for ${concept}`,
          ).toEqual([]);
      }
    },
  );
});

describe('a state inside a sentence', () => {
  it('is the reader’s word for it, never the code (a German sentence said "queued" and "submitting")', () => {
    const waiting = said('evidence.notAnchoredYet', { state: stateSaid('submitting') });
    expect(sayerFor('de')(waiting)).toBe('Noch nicht verankert (wird gesendet).');
    expect(sayerFor('en')(waiting)).toBe('Not anchored yet (sending).');
    const refused = said('queue.illegalTransition', { from: stateSaid('anchored'), to: stateSaid('queued') });
    expect(sayerFor('de')(refused)).toBe(
      'Diese Zertifizierung ist jetzt verankert und kann daher nicht eingereiht werden.',
    );
    // A register's cell that is not one of ours is said as written.
    expect(
      sayerFor('de')(said('sets.why.notAnchored', { name: 'a.pdf', state: stateSaid('lost') })),
    ).toContain('lost');
  });
});
