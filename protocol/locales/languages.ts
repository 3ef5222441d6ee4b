/**
 * The languages Evidence Desk speaks, and how the one in use is chosen: the person's choice in
 * Settings, else the first of the computer's preferred languages we have, else English.
 */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export type LanguageChoice = Language | 'system';
export const LANGUAGE_CHOICES: readonly LanguageChoice[] = ['system', ...LANGUAGES];

/** Each language named in itself, as a menu of languages should. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch' };

export const isLanguageChoice = (value: unknown): value is LanguageChoice =>
  typeof value === 'string' && (LANGUAGE_CHOICES as readonly string[]).includes(value);

/** "de-AT" → "de": the first preferred language we have; English when none is. */
export function languageFor(choice: LanguageChoice, preferred: readonly string[]): Language {
  if (choice !== 'system') return choice;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split(/[-_]/)[0];
    const found = LANGUAGES.find((language) => language === base);
    if (found) return found;
  }
  return 'en';
}
