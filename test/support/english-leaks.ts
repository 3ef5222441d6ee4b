import { de } from '../../protocol/locales/de';
import { en } from '../../protocol/locales/en';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[prefix + key, value]] : leaves(value, `${prefix}${key}.`),
  );
}

const german = new Map(leaves(de as unknown as Tree));

/**
 * Every phrase of the English catalogue (the screens' words and what the core says) that German
 * words differently: the fixed parts of each sentence between its {{values}} and markup, of three
 * words or more, so that names both languages share ("Evidence Desk", "SHA-256") never count.
 */
export const ENGLISH_PHRASES: readonly string[] = [
  ...new Set(
    leaves({ app: en.app, said: en.said } as unknown as Tree)
      .filter(([key, english]) => german.get(key) !== english)
      .flatMap(([, english]) => english.split(/\{\{[^}]+\}\}|<[^>]+>/))
      .map((part) => part.trim().replace(/^[\s.,:;()“”"—–-]+|[\s.,:;()“”"—–-]+$/g, ''))
      .filter((part) => part.split(/\s+/).length >= 3),
  ),
];

/** The English phrases a screen shows: none, when everything it says is in German. */
export const englishOn = (visibleText: string): string[] =>
  ENGLISH_PHRASES.filter((phrase) => visibleText.includes(phrase));
