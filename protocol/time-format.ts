/**
 * Times as people read them: in their own zone with the zone named, and as ISO 8601 UTC for
 * exports, receipts and anyone in another zone. One place, so a certificate and a screen agree.
 */
export function utcIso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface LocalTimeOptions {
  locale?: string;
  /** An IANA zone (Europe/Paris); the computer's own when left out. */
  timeZone?: string;
}

// Making a format costs far more than using one (a kit of 10,000 certificates writes 40,000 times;
// a list of 50 rows re-rendered as a drop is queued made one per row, 120 ms of the window's
// thread): formats are kept. One for a named zone is kept for good; one for the computer's own
// zone for a second, since a laptop that travels changes its zone while the app runs.
const COMPUTER_ZONE_KEPT_MS = 1000;
const formats = new Map<string, { format: Intl.DateTimeFormat; madeAt: number }>();

function keptFormat(
  style: 'long' | 'short',
  { locale, timeZone }: LocalTimeOptions,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${style} ${locale ?? ''} ${timeZone ?? ''}`;
  const now = Date.now();
  const kept = formats.get(key);
  if (kept && (timeZone !== undefined || now - kept.madeAt < COMPUTER_ZONE_KEPT_MS)) return kept.format;
  const format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
  formats.set(key, { format, madeAt: now });
  return format;
}

const longFormat = (options: LocalTimeOptions): Intl.DateTimeFormat =>
  keptFormat('long', options, { dateStyle: 'long', timeStyle: 'long' });

/** Whether a zone (the computer's when left out) keeps UTC itself: its local time already is UTC. */
export const isUtc = (timeZone?: string): boolean =>
  [
    'UTC',
    'Etc/UTC',
    'Etc/GMT',
    'GMT',
    'Etc/UCT',
    'UCT',
    'Etc/Universal',
    'Universal',
    'Etc/Zulu',
    'Zulu',
  ].includes(new Intl.DateTimeFormat(undefined, { timeZone }).resolvedOptions().timeZone);

/** The zone this computer is in now, by its IANA name. */
export const computerTimeZone = (): string => new Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "22 November 2026 at 20:46:09 CET (Europe/Paris)": local time, with the zone in words. */
export function localWithZone(ms: number, options: LocalTimeOptions = {}): string {
  const format = longFormat(options);
  const zone = format.resolvedOptions().timeZone;
  const text = format.format(ms);
  return text.includes(zone) ? text : `${text} (${zone})`;
}

/** "2026-11-22 19:46:09": UTC for a column or line that says UTC once. */
export const utcPlain = (ms: number): string => utcIso(ms).replace('T', ' ').replace('Z', '');

/**
 * For papers: local time with the zone named, then UTC, each once ("22 November 2026 at 20:46:09
 * CET (Europe/Paris) · 2026-11-22 19:46:09 UTC"); where local time is UTC, it alone.
 */
export function localAndUtc(ms: number, options: LocalTimeOptions = {}, between = ' · '): string {
  const local = localWithZone(ms, options);
  return isUtc(options.timeZone) ? local : `${local}${between}${utcPlain(ms)} UTC`;
}

/** "22 Nov 2026, 20:46 CET": for lists, where a line has little room; the zone still named. */
export function localShort(ms: number, options: LocalTimeOptions = {}): string {
  return keptFormat('short', options, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(ms);
}
