import type { Language } from '../../protocol/locales';
import { languageFor, sayWith, translatorFor } from '../../protocol/locales';

/**
 * The command line speaks the language the environment asks for, as POSIX orders it: the first
 * of LC_ALL, LC_MESSAGES and LANG that is set ("de_DE.UTF-8" → German; "C" → English), where a
 * catalogue exists; English otherwise. Output for scripts (--json) and the log keep English and codes.
 */
export function commandLineLanguage(env: NodeJS.ProcessEnv = process.env): Language {
  const tag = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value);
  return languageFor('system', tag ? [tag.split('.')[0] as string] : []);
}

/** The language the command line speaks, from LC_ALL, LC_MESSAGES or LANG. */
export const language = commandLineLanguage();

/** Dates and numbers for people: the language's own habits, or the computer's for English. */
export const peopleLocale: string | undefined = language === 'en' ? undefined : language;

/** The command line's own words. */
export const words = translatorFor(language, 'cli');

/** The screens' words, where the command line says the same (a proof's verdict and its facts). */
export const appWords = translatorFor(language, 'app');

/** What the core said, in the command line's language. */
export const say = sayWith(words);
