import type { LanguageChoice } from '../../protocol/locales/languages';
import { isLanguageChoice } from '../../protocol/locales/languages';
import { said } from '../../protocol/said';
import type { ItPolicy } from '../desktop-policy/it-policy';
import { itPolicyOf } from '../desktop-policy/it-policy';
import { DeskError } from '../errors';
import type { SettingsStore } from '../store';
import { SETTING } from '../store/setting-keys';

const {
  receiptsBesideFiles: RECEIPTS_BESIDE_FILES,
  language: LANGUAGE,
  sourceSystem: SOURCE_SYSTEM,
  certifierName: CERTIFIER_NAME,
  certifierFirm: CERTIFIER_FIRM,
} = SETTING;

/** What the service records as the source of certifications made here, unless chosen. */
export const DEFAULT_SOURCE_SYSTEM = 'evidence-desk';

/** Who certifies at this computer: a person's name and firm, written once (null until then). */
export interface Certifier {
  name: string | null;
  firm: string | null;
}

/** The person's choices that are not about a service: kept in the queue's settings, read fresh each time. */
export class Preferences {
  constructor(
    private readonly settings: SettingsStore,
    /** What IT decides by policy (read when asked: it is read once the core is open). */
    private readonly policy: () => ItPolicy = () => itPolicyOf({}),
  ) {}

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

  /** The source system certifications made here name: IT's (policy SourceSystem), else chosen, else ours. */
  get sourceSystem(): { name: string; byPolicy: boolean } {
    const byPolicy = this.policy().sourceSystem;
    if (byPolicy) return { name: byPolicy, byPolicy: true };
    return { name: this.settings.get(SOURCE_SYSTEM) || DEFAULT_SOURCE_SYSTEM, byPolicy: false };
  }

  setSourceSystem(name: string): void {
    if (this.policy().sourceSystem)
      throw new DeskError('forbidden', said('preferences.sourceSystemByPolicy'));
    const trimmed = name.trim();
    if (trimmed) this.settings.set(SOURCE_SYSTEM, trimmed);
    else this.settings.delete(SOURCE_SYSTEM);
  }

  /** Who certifies here, as written once (first run, or Settings). */
  get certifier(): Certifier {
    return {
      name: this.settings.get(CERTIFIER_NAME) || null,
      firm: this.settings.get(CERTIFIER_FIRM) || null,
    };
  }

  setCertifier({ name, firm }: Certifier): void {
    for (const [key, value] of [
      [CERTIFIER_NAME, name],
      [CERTIFIER_FIRM, firm],
    ] as const)
      if (value?.trim()) this.settings.set(key, value.trim());
      else this.settings.delete(key);
  }
}
