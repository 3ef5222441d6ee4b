import type { TFunction } from 'i18next';

/**
 * How long work still takes, as a person says it: under a minute; whole minutes below an hour;
 * hours and minutes (to five) below three hours; whole hours beyond, where minutes are noise.
 */
export function timeLeftWords(leftMs: number, t: TFunction<'app'>): string {
  const totalMinutes = Math.round(leftMs / 60_000);
  if (leftMs < 60_000) return t('progress.underAMinuteLeft');
  if (totalMinutes < 60) return t('progress.minutesLeft', { count: totalMinutes });
  if (totalMinutes >= 180) return t('progress.hoursLeft', { count: Math.round(totalMinutes / 60) });
  const rounded = Math.round(totalMinutes / 5) * 5;
  const hours = Math.floor(rounded / 60);
  const minutes = rounded % 60;
  return minutes === 0
    ? t('progress.hoursLeft', { count: hours })
    : t('progress.hoursAndMinutesLeft', {
        hours: t('progress.hours', { count: hours }),
        minutes: t('progress.minutes', { count: minutes }),
      });
}

/** The time left from the pace so far (work units done in `elapsedMs`), or null before it says anything. */
export function leftAtPace(elapsedMs: number, done: number, remaining: number): number | null {
  return elapsedMs < 3000 || done <= 0 ? null : (elapsedMs / done) * remaining;
}
