import { createInstance } from 'i18next';
import type { TFunction, i18n as I18n } from 'i18next';
import { localWithZone } from '../time-format';
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
  // As the command line says every other time: in its language's own locale, English in the system's.
  withWhenFormat(i18n, (lng) => (lng === 'en' ? undefined : lng));
  return i18n.getFixedT(language, ns);
}

export { sayWith };

/**
 * "{{next, when}}": a moment (ms since 1970) as people read it, with its zone, in the same words
 * as every other time the shell shows (time-format.ts), in the locale `localeOf` picks.
 */
export function withWhenFormat(i18n: I18n, localeOf: (language: string) => string | undefined): void {
  i18n.services.formatter?.add('when', (value: unknown, lng: string | undefined) =>
    localWithZone(Number(value), { locale: localeOf(lng ?? 'en') }),
  );
}

/** Something the core said, in one language's words (the CLI's, a log's, a message's English). */
export const sayerFor = (language: Language): ((saying: Said) => string) => sayWith(translatorFor(language));

/** English, for logs' readers and the messages of errors (the words shown are chosen by each shell). */
export const inEnglish = sayerFor('en');
