import { createInstance } from 'i18next';
import type { TFunction } from 'i18next';
import { de } from './de';
import { en } from './en';
import type { Language } from './languages';
import type { Said } from '../said';
import { sayWith } from './say-with';

export * from './languages';

/** Every language's catalogue, in the shape i18next reads. */
export const resources = { en, de } as const satisfies Record<Language, unknown>;

export const I18N_OPTIONS = {
  resources,
  fallbackLng: 'en',
  ns: ['app', 'shell', 'said', 'cli'],
  defaultNS: 'app',
  // React escapes what it renders, and the shell's texts are not HTML.
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
} as const;

/** A translator of its own for one language and namespace (the shell's menus, the command line). */
export function translatorFor(language: Language): TFunction<'shell'>;
export function translatorFor<N extends 'shell' | 'app' | 'cli'>(language: Language, ns: N): TFunction<N>;
export function translatorFor(language: Language, ns: 'shell' | 'app' | 'cli' = 'shell') {
  const i18n = createInstance();
  void i18n.init({ ...I18N_OPTIONS, lng: language, defaultNS: ns });
  return i18n.getFixedT(language, ns);
}

export { sayWith };

/** Something the core said, in one language's words (the CLI's, a log's, a message's English). */
export const sayerFor = (language: Language): ((saying: Said) => string) => sayWith(translatorFor(language));

/** English, for logs' readers and the messages of errors (the words shown are chosen by each shell). */
export const inEnglish = sayerFor('en');
