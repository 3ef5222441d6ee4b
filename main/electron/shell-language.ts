import { app } from 'electron';
import type { LanguageChoice } from '../../protocol/locales';
import { languageFor, translatorFor } from '../../protocol/locales';
import type { ShellText } from '../desktop-policy/background';

let current: ShellText = translatorFor('en');

/** The menus, tray, dialogs and notifications speak the screens' language: chosen, or the computer's. */
export function setShellLanguage(choice: LanguageChoice): ShellText {
  current = translatorFor(languageFor(choice, app.getPreferredSystemLanguages()));
  return current;
}

export const shellText = (): ShellText => current;
