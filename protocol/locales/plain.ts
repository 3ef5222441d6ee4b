import type { Said } from '../said';
import { wordsOf } from '../said';
import { de } from './de';
import { en } from './en';
import type { Language } from './languages';

/**
 * The catalogues read without i18next, for verify.html (which carries no translation library)
 * and the English of reports: a key's sentence with its {{values}} filled in, the plural form
 * (`_one`, `_other`) chosen by `count`, and `ns` naming the namespace as i18next's option does.
 */
const CATALOGUES = { en, de } as const;

type Namespace = 'app' | 'cli' | 'said';
export type PlainT = (key: string, values?: Record<string, unknown>) => string;

// Made once per language and namespace: a register of 10,000 rows words each of them.
const made = new Map<string, PlainT>();

export function plainT(language: Language, ns: Namespace): PlainT {
  const key = `${language}:${ns}`;
  let t = made.get(key);
  if (!t) made.set(key, (t = makeT(language, ns)));
  return t;
}

function makeT(language: Language, ns: Namespace): PlainT {
  const plural = new Intl.PluralRules(language);
  return (key, values = {}) => {
    const catalogue = CATALOGUES[language][(values.ns as Namespace | undefined) ?? ns] as unknown;
    const at = (path: string) =>
      path
        .split('.')
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
    const count = values.count;
    const sentence =
      (typeof count === 'number'
        ? (at(`${key}_${plural.select(count)}`) ?? at(`${key}_other`))
        : undefined) ?? at(key);
    return String(typeof sentence === 'string' ? sentence : key).replace(
      /\{\{(\w+)(?:, *\w+)?\}\}/g,
      (_all, name: string) => {
        const value = values[name];
        return typeof value === 'number' ? value.toLocaleString(language) : String(value ?? '');
      },
    );
  };
}

/** Something said, in a language's words, without i18next. */
export const plainSay = (language: Language) => {
  const t = plainT(language, 'said');
  return (saying: Said): string => wordsOf((key, values) => t(key, values), saying);
};

/** Something said, in English, without i18next. */
export const plainEnglish = plainSay('en');
