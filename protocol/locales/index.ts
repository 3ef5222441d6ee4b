import { createInstance } from 'i18next';
import type { TFunction } from 'i18next';
import { de } from './de';
import { en } from './en';
import type { Language } from './languages';

export * from './languages';

/** Every language's catalogue, in the shape i18next reads. */
export const resources = { en, de } as const satisfies Record<Language, unknown>;

export const I18N_OPTIONS = {
  resources,
  fallbackLng: 'en',
  ns: ['app', 'shell'],
  defaultNS: 'app',
  // React escapes what it renders, and the shell's texts are not HTML.
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
} as const;

/** A translator of its own for one language (the Electron shell's menus, tray and notifications). */
export function translatorFor(language: Language): TFunction<'shell'> {
  const i18n = createInstance();
  void i18n.init({ ...I18N_OPTIONS, lng: language, defaultNS: 'shell' });
  return i18n.getFixedT(language, 'shell');
}
