import { de } from '../../protocol/locales/de';
import { en } from '../../protocol/locales/en';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[prefix + key, value]] : leaves(value, `${prefix}${key}.`),
  );
}

const german = new Map(leaves(de as unknown as Tree));
const allGerman = [...german.values()].join('\n');

/**
 * Every phrase of the English catalogue (the screens', the command line's and what the core says)
 * that German words differently: the fixed parts of each sentence between its {{values}}, markup
 * and line breaks, of three words or more and found nowhere in German, so that what both languages
 * share ("Evidence Desk", "SHA-256", a command's synopsis) never counts.
 */
export const ENGLISH_PHRASES: readonly string[] = [
  ...new Set(
    leaves({ app: en.app, said: en.said, cli: en.cli } as unknown as Tree)
      .filter(([key, english]) => german.get(key) !== english)
      .flatMap(([, english]) => english.split(/\{\{[^}]+\}\}|<[^>]+>|\n/))
      .map((part) => part.trim().replace(/^[\s.,:;()“”"—–-]+|[\s.,:;()“”"—–-]+$/g, ''))
      .filter((part) => part.split(/\s+/).length >= 3 && !allGerman.includes(part)),
  ),
];

/** The English phrases a screen shows: none, when everything it says is in German. */
export const englishOn = (visibleText: string): string[] =>
  ENGLISH_PHRASES.filter((phrase) => visibleText.includes(phrase));
