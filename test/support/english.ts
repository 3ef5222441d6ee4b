import { inEnglish } from '../../protocol/locales';
import type { Said } from '../../protocol/said';

/** What the core said, in English, for assertions on its words (null stays null). */
export const englishOf = (saying: Said | null | undefined): string | null =>
  saying ? inEnglish(saying) : null;
