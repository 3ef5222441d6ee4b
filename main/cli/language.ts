import type { Language } from '../../protocol/locales';
import { languageFor, sayerFor } from '../../protocol/locales';

/**
 * The command line speaks the language the environment asks for, as POSIX orders it (LC_ALL,
 * then LC_MESSAGES, then LANG: "de_DE.UTF-8" → German), where a catalogue exists; else English.
 */
export function commandLineLanguage(env: NodeJS.ProcessEnv = process.env): Language {
  const tag = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find(
    (value) => value && value !== 'C' && value !== 'POSIX',
  );
  return languageFor('system', tag ? [tag.split('.')[0] as string] : []);
}

/** What the core said, in the command line's language. */
export const say = sayerFor(commandLineLanguage());
