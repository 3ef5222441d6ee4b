/** When and whether to try again: exponential backoff with full jitter, honouring Retry-After. */
export interface BackoffOptions {
  baseMs: number;
  capMs: number;
}

/** How patient the sync engine is: how long it waits before sending again, probing, or looking again. */
export interface Pacing {
  submit: BackoffOptions;
  offlineProbe: BackoffOptions;
  /** Polls of an accepted certification start at `pollFirstMs` and double up to `pollCapMs`. */
  pollFirstMs: number;
  pollCapMs: number;
}

export const DEFAULT_PACING: Pacing = {
  submit: { baseMs: 1000, capMs: 5 * 60_000 },
  offlineProbe: { baseMs: 1000, capMs: 30_000 },
  pollFirstMs: 1000,
  pollCapMs: 60_000,
};

/** Full jitter (a uniform draw up to the exponential ceiling) spreads retries of many clients apart. */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/** The delay a Retry-After header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Retried: the request may succeed later. Everything else in 4xx is the request's own fault. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

/** Polls of accepted certifications grow slower as they wait: 1 s, 2 s, 4 s … up to a minute. */
export function pollDelay(
  polls: number,
  pacing: Pick<Pacing, 'pollFirstMs' | 'pollCapMs'> = DEFAULT_PACING,
): number {
  return Math.min(pacing.pollCapMs, pacing.pollFirstMs * 2 ** Math.min(polls, 16));
}
