import type { en } from './locales/en';

/**
 * What the core says to a person, as a key into the `said` catalogue and the values to fill in:
 * each shell puts it into its person's language (the app's screens, the CLI's LANG); the log keeps
 * the key. A value may itself be something said ("cannot be reached: {{reason}}"), worded first.
 * The service's own words travel as plain values, quoted and marked as the service's.
 */
export interface Said {
  key: SaidKey;
  values?: Record<string, SaidValue>;
}
export type SaidValue = string | number | Said;

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type SaidKey = Leaves<typeof en.said>;

export const said = (key: SaidKey, values?: Record<string, SaidValue>): Said =>
  values === undefined ? { key } : { key, values };

export const isSaid = (value: unknown): value is Said =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Said).key === 'string' &&
  ((value as Said).values === undefined || typeof (value as Said).values === 'object');

/** Looks a key up in one language's `said` catalogue, filling in values already worded. */
export type SaidLookup = (key: SaidKey, values: Record<string, string | number>) => string;

/** Something said, in the words of the lookup's language: nested sayings first. */
export function wordsOf(lookup: SaidLookup, saying: Said): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(saying.values ?? {}))
    values[name] = isSaid(value) ? wordsOf(lookup, value) : value;
  return lookup(saying.key, values);
}

/**
 * Sayings kept in the queue's text columns (a row's reason, its evidence check, a timeline note)
 * are stored as JSON. Rows written before this version hold English sentences: those are shown
 * as they were written.
 */
export const storedSaid = (saying: Said | null): string | null =>
  saying === null ? null : JSON.stringify(saying);

export function readStoredSaid(text: string | null): Said | null {
  if (text === null) return null;
  if (text.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(text);
      if (isSaid(value)) return value;
    } catch {
      // Not ours: an older sentence that happens to start with a brace.
    }
  }
  return said('asWritten', { text });
}
