import i18next from 'i18next';
import { useEffect } from 'react';
import { initReactI18next, useTranslation } from 'react-i18next';
import { I18N_OPTIONS, languageFor, withWhenFormat } from '../../protocol/locales';
import type { LanguageChoice } from '../../protocol/locales';
import { localShort, localWithZone, utcIso } from '../../protocol/time-format';
import { sayWith } from '../../protocol/locales';
import type { Said } from '../../protocol/said';

/** The computer's languages, as Chromium reports them (Electron passes on the operating system's). */
export const systemLanguages = (): readonly string[] => navigator.languages ?? [navigator.language];

// Synchronous: the catalogues are bundled, so the first paint is already in the right language.
void i18next.use(initReactI18next).init({
  ...I18N_OPTIONS,
  ns: ['app', 'said'],
  lng: languageFor('system', systemLanguages()),
});
withWhenFormat(i18next, formattingLocale);

/** What the core said, in the words of the language shown. */
export function useSay(): (saying: Said) => string {
  const { t } = useTranslation();
  return sayWith(t);
}

/** Follows the language chosen in Settings (or the computer's), on every screen at once. */
export function useLanguageChoice(choice: LanguageChoice | undefined): void {
  useEffect(() => {
    if (choice === undefined) return;
    const language = languageFor(choice, systemLanguages());
    document.documentElement.lang = language;
    if (i18next.language !== language) void i18next.changeLanguage(language);
  }, [choice]);
}

/** The computer's own variant of the language shown (en-GB, de-AT), for its date and number habits. */
function formattingLocale(language: string): string {
  return systemLanguages().find((tag) => tag.toLowerCase().split(/[-_]/)[0] === language) ?? language;
}

// Made once per locale: a list's rows format counts and sizes on every render.
const numberFormats = new Map<string, Intl.NumberFormat>();
const numberFormat = (locale: string): Intl.NumberFormat => {
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format;
};

/** Numbers, sizes and times in the language shown, each time with its zone and UTC on hover. */
export function useFormat() {
  const { t, i18n } = useTranslation();
  const locale = formattingLocale(i18n.language);
  const number = (value: number) => numberFormat(locale).format(value);
  return {
    number,
    /** 2.4 MB (2,400,000 bytes): the exact count matters in a dispute, the round one for reading. */
    size: (bytes: number) =>
      bytes < 1000
        ? new Intl.NumberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes)
        : t('details.bytes', { size: roundSize(bytes, locale), bytes: number(bytes) }),
    long: (ms: number) => localWithZone(ms, { locale }),
    short: (ms: number) => localShort(ms, { locale }),
    utcTitle: (ms: number) => t('details.utcTitle', { iso: utcIso(ms) }),
  };
}

/** A moment as people read it here, with the zone named; ISO 8601 UTC on hover and for machines. */
export function When({ ms, short = false }: { ms: number; short?: boolean }) {
  const format = useFormat();
  return (
    <time dateTime={utcIso(ms)} title={format.utcTitle(ms)}>
      {short ? format.short(ms) : format.long(ms)}
    </time>
  );
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** 2.4 MB, 2,4 MB: decimal units, as file managers on Windows and macOS show sizes. */
function roundSize(bytes: number, locale: string): string {
  const power = Math.min(UNITS.length - 1, bytes < 1000 ? 0 : Math.floor(Math.log10(bytes) / 3));
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: UNITS[power],
    unitDisplay: 'short',
    maximumFractionDigits: power === 0 ? 0 : 1,
  }).format(bytes / 1000 ** power);
}
