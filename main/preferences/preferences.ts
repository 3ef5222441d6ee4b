import type { LanguageChoice } from '../../protocol/locales/languages';
import { isLanguageChoice } from '../../protocol/locales/languages';
import type { SettingsStore } from '../store';
import { SETTING } from '../store/setting-keys';

const { receiptsBesideFiles: RECEIPTS_BESIDE_FILES, language: LANGUAGE } = SETTING;

/** The person's choices that are not about a service: kept in the queue's settings, read fresh each time. */
export class Preferences {
  constructor(private readonly settings: SettingsStore) {}

  /** The language of the app's screens: the computer's (default) or one chosen in Settings. */
  get language(): LanguageChoice {
    const saved = this.settings.get(LANGUAGE);
    return isLanguageChoice(saved) ? saved : 'system';
  }

  setLanguage(language: LanguageChoice): void {
    this.settings.set(LANGUAGE, language);
  }

  /** Whether a receipt is written beside each certified file once it is anchored (off unless chosen). */
  get receiptsBesideFiles(): boolean {
    return this.settings.get(RECEIPTS_BESIDE_FILES) === 'on';
  }

  setReceiptsBesideFiles(on: boolean): void {
    this.settings.set(RECEIPTS_BESIDE_FILES, on ? 'on' : 'off');
  }
}
