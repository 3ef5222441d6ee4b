import type { ServiceFailureCode } from '../../protocol/errors';
import { inEnglish } from '../../protocol/locales';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import { errorCodeOf, errorMessageOf, UnreadableResponse } from './response-reader';
import { isRetryableStatus, retryAfterMs } from './retry-policy';

/**
 * How one call to the service ended. `offline` means no answer at all (network down, timeout).
 * A failure carries one of our closed codes and what to tell people; the service's own status,
 * code and raw answer travel beside them, as it sent them.
 */
export type ServiceAnswer<T> =
  | { ok: true; value: T; raw: string }
  | {
      ok: false;
      retryable: boolean;
      offline: boolean;
      code: ServiceFailureCode;
      said: Said;
      /** Its English, for logs and `--json`; people read `said` in their own language. */
      message: string;
      status?: number;
      /** The service's own code for the error, when its answer carried one. */
      serviceCode?: string;
      retryAfterMs?: number;
      raw?: string;
    };

export type ServiceFailure = Extract<ServiceAnswer<never>, { ok: false }>;

/** A failure, with the English of what it says. */
export const failure = (parts: Omit<ServiceFailure, 'ok' | 'message'>): ServiceFailure => ({
  ok: false,
  ...parts,
  message: inEnglish(parts.said),
});

/** A failure found deep in a call, carried out of it to where the call's answer is made. */
export class CallFailed extends Error {
  constructor(readonly failure: ServiceFailure) {
    super(failure.code);
  }
}

const KEPT_RAW_CHARACTERS = 10_000;

export function unreadable(saying: Said, status: number, raw: string): ServiceFailure {
  return failure({
    retryable: false,
    offline: false,
    code: 'unreadable_response',
    said: saying,
    status,
    raw: raw.slice(0, KEPT_RAW_CHARACTERS),
  });
}

/** A redirect that is not followed: a creation is never re-sent elsewhere, a read never leaves the service. */
export function redirectFailure(response: Response, requestUrl: URL): ServiceFailure {
  const location = response.headers.get('location');
  const target = location ? new URL(location, requestUrl) : null;
  return failure({
    retryable: false,
    offline: false,
    status: response.status,
    code: 'redirected',
    said: said('service.redirected', {
      status: response.status,
      target: target ? target.origin + target.pathname : said('service.noAddress'),
    }),
  });
}

/** An HTTP error: the service's own words when it gave some, quoted, else its status. */
export function httpFailure(response: Response, raw: string): ServiceFailure {
  const words = errorMessageOf(raw);
  const serviceCode = errorCodeOf(raw);
  return failure({
    retryable: isRetryableStatus(response.status),
    offline: false,
    status: response.status,
    code: 'service_error',
    ...(serviceCode === undefined ? {} : { serviceCode }),
    said: words
      ? said('service.said', { said: words })
      : said('service.answeredStatus', { status: response.status, statusText: response.statusText }),
    retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
    raw: raw.slice(0, KEPT_RAW_CHARACTERS),
  });
}

export function failureOf(error: unknown): ServiceFailure {
  if (error instanceof CallFailed) return error.failure;
  // A response that cannot be read fails this one request, with the words why; it is not retried blindly.
  if (error instanceof UnreadableResponse)
    return failure({ retryable: false, offline: false, code: 'unreadable_response', said: error.said });
  return failure({
    retryable: true,
    offline: false,
    code: 'request_failed',
    said: said('service.requestNotMade', { reason: (error as Error).message }),
  });
}
