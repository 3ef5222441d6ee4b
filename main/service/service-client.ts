import type { Fetch } from './network';
import { CAPTIVE_PORTAL_MESSAGE, explainNetworkFailure, looksLikeCaptivePortal } from './network-errors';
import { randomUUID } from 'node:crypto';
import type { CertificationRequest } from '../../protocol/certification-request';
import type { SigningKeys } from './request-signer';
import { signRequest } from './request-signer';
import type { CertificationReading } from './response-reader';
import { UnreadableResponse, errorCodeOf, errorMessageOf, readCertification } from './response-reader';
import { isRetryableStatus, retryAfterMs } from './retry-policy';
import { TokenProvider } from './token-provider';

export interface ServiceConnection {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  signing: SigningKeys;
  timeoutMs?: number;
  /**
   * How requests leave the machine: in the app, Electron's net.fetch (system proxy, PAC, OS
   * certificates); in the CLI, a fetch through HTTPS_PROXY trusting the OS store and extra CAs.
   */
  fetch?: Fetch;
}

/** How one call ended. `offline` means no answer at all (network down, timeout). */
export type CallResult<T> =
  | { ok: true; value: T; raw: string }
  | {
      ok: false;
      retryable: boolean;
      offline: boolean;
      code: string;
      message: string;
      status?: number;
      retryAfterMs?: number;
      raw?: string;
    };

type Failure = Extract<CallResult<never>, { ok: false }>;

interface OutgoingRequest {
  method: 'GET' | 'POST';
  url: URL;
  requestId: string;
  body: string | undefined;
  authenticated: boolean;
  signal?: AbortSignal;
}

const isRedirect = (status: number) => status >= 300 && status < 400;

const DEFAULT_TIMEOUT_MS = 15_000;
// The spec does not show the token lifetime; absent an expires_in we assume a short one.
const ASSUMED_TOKEN_LIFETIME_SECONDS = 60;

class CallFailed extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

/**
 * The Evidence Certification Service over HTTP: one attempt per call (the sync engine owns
 * retries, so they survive restarts), a token renewed before expiry and once more on 401.
 */
export class ServiceClient {
  private readonly tokens: TokenProvider;

  constructor(private readonly connection: ServiceConnection) {
    this.tokens = new TokenProvider(() => this.fetchToken());
  }

  /** `signal` withdraws the request: before it is sent, nothing goes on the wire at all. */
  createCertification(
    input: CertificationRequest,
    requestId: string,
    signal?: AbortSignal,
  ): Promise<CallResult<CertificationReading>> {
    return this.call(
      'POST',
      `/v1/certifications`,
      requestId,
      JSON.stringify(input),
      (json) => readCertification(json),
      true,
      signal,
    );
  }

  readCertification(serviceId: string, signal?: AbortSignal): Promise<CallResult<CertificationReading>> {
    return this.call(
      'GET',
      `/v1/certifications/${encodeURIComponent(serviceId)}`,
      randomUUID(),
      undefined,
      (json) => readCertification(json, serviceId),
      true,
      signal,
    );
  }

  /** The sandbox's log key (docs/api.md); the real service may have none, which is a plain failure. */
  fetchLogKey(): Promise<CallResult<string>> {
    return this.call(
      'GET',
      '/v1/log/public-key',
      randomUUID(),
      undefined,
      (json) => {
        const key = (json as { public_key?: unknown }).public_key;
        if (typeof key !== 'string') throw new UnreadableResponse('The service did not publish a log key.');
        return key;
      },
      false,
    );
  }

  /** A consistency proof between two sizes of the log (docs/api.md); a service without the endpoint answers 404. */
  fetchConsistency(first: number, second: number): Promise<CallResult<string[]>> {
    return this.call(
      'GET',
      `/v1/log/consistency?first=${first}&second=${second}`,
      randomUUID(),
      undefined,
      (json) => {
        const nodes = (json as { consistency?: unknown }).consistency;
        if (
          !Array.isArray(nodes) ||
          !nodes.every((node) => typeof node === 'string' && /^[0-9a-f]{64}$/.test(node))
        )
          throw new UnreadableResponse('The service sent a consistency proof this app cannot read.');
        return nodes as string[];
      },
      false,
    );
  }

  /** Fetches a token and says in plain words whether that worked. */
  async testConnection(): Promise<CallResult<{ expiresInSeconds: number }>> {
    try {
      const token = await this.fetchToken();
      return { ok: true, value: { expiresInSeconds: token.expiresInSeconds }, raw: '' };
    } catch (error) {
      return failureOf(error);
    }
  }

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    requestId: string,
    body: string | undefined,
    read: (json: unknown) => T,
    authenticated = true,
    signal?: AbortSignal,
  ): Promise<CallResult<T>> {
    try {
      const request: OutgoingRequest = {
        method,
        url: this.urlOf(path),
        requestId,
        body,
        authenticated,
        signal,
      };
      let response = await this.send(request);
      if (response.status === 401 && authenticated) {
        // The token may have expired early or been revoked: renew once and try once more.
        await response.body?.cancel();
        response = await this.send(request, true);
      }
      response = await this.followReadRedirects(response, request);
      if (isRedirect(response.status)) return redirectFailure(response, request);
      const raw = await response.text();
      if (!response.ok) return httpFailure(response, raw);
      if (raw.trim() === '') return this.readLocation(response, read, authenticated, signal);
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return unreadable(
          looksLikeCaptivePortal(response.headers.get('content-type'), raw)
            ? CAPTIVE_PORTAL_MESSAGE
            : 'The service answered with something that is not JSON.',
          response.status,
          raw,
        );
      }
      try {
        return { ok: true, value: read(json), raw };
      } catch (error) {
        // A 2xx that is not what was asked for fails this one request; its raw answer is kept.
        if (error instanceof UnreadableResponse) return unreadable(error.message, response.status, raw);
        throw error;
      }
    } catch (error) {
      return failureOf(error);
    }
  }

  /** An accepted request answered with no body (202 and a Location): the certification is read there. */
  private readLocation<T>(
    response: Response,
    read: (json: unknown) => T,
    authenticated: boolean,
    signal?: AbortSignal,
  ): Promise<CallResult<T>> {
    const location = response.headers.get('location');
    const target = location ? new URL(location, response.url || this.connection.baseUrl) : null;
    if (!target || target.origin !== this.urlOf('').origin)
      return Promise.resolve(
        unreadable(
          `The service answered ${response.status} with nothing to read and no address of its own to read it from.`,
          response.status,
          '',
        ),
      );
    return this.call('GET', target.href, randomUUID(), undefined, read, authenticated, signal);
  }

  /** Reads may be redirected within the service (up to 5 times); nothing is ever re-sent elsewhere. */
  private async followReadRedirects(response: Response, request: OutgoingRequest): Promise<Response> {
    let current = response;
    for (let hops = 0; hops < 5 && isRedirect(current.status) && request.method === 'GET'; hops++) {
      const location = current.headers.get('location');
      const target = location ? new URL(location, request.url) : null;
      if (!target || target.origin !== request.url.origin) return current;
      await current.body?.cancel();
      request = { ...request, url: target };
      current = await this.send(request);
    }
    return current;
  }

  /** A path under the base address, or an absolute address of the service (a Location it gave). */
  private urlOf(pathOrUrl: string): URL {
    if (/^https?:\/\//i.test(pathOrUrl)) return new URL(pathOrUrl);
    return new URL(`${this.connection.baseUrl.replace(/\/+$/, '')}${pathOrUrl}`);
  }

  private async send(request: OutgoingRequest, isRetry = false): Promise<Response> {
    const { method, url, requestId, body, authenticated, signal } = request;
    // Public reads (the log's key and proofs) carry no credentials: nothing secret goes where none is needed.
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(authenticated
        ? signRequest(
            { method, path: url.pathname + url.search, requestId, body: body ?? '' },
            this.connection.signing,
          )
        : { 'x-request-id': requestId }),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let token: string | undefined;
    if (authenticated) {
      token = await this.tokens.get();
      headers.authorization = `Bearer ${token}`;
    }
    const response = await this.fetch(url, { method, headers, body }, signal);
    if (response.status === 401 && token && !isRetry) this.tokens.invalidate(token);
    return response;
  }

  private async fetchToken(): Promise<{ accessToken: string; expiresInSeconds: number }> {
    const response = await this.fetch(new URL(this.connection.tokenUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.connection.clientId,
        client_secret: this.connection.clientSecret,
      }).toString(),
    });
    const raw = await response.text();
    if (!response.ok) {
      const failure = httpFailure(response, raw);
      if (response.status === 400 || response.status === 401) {
        throw new CallFailed({
          ...failure,
          retryable: true,
          code: 'auth_failed',
          message: `The service refused the client credentials: ${failure.message}`,
        });
      }
      throw new CallFailed(failure);
    }
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      throw new CallFailed({
        ok: false,
        retryable: true,
        offline: false,
        code: 'unreadable_response',
        message: looksLikeCaptivePortal(response.headers.get('content-type'), raw)
          ? CAPTIVE_PORTAL_MESSAGE
          : 'The token endpoint answered with something that is not JSON.',
      });
    }
    if (typeof body.access_token !== 'string' || !body.access_token) {
      throw new CallFailed({
        ok: false,
        retryable: true,
        offline: false,
        code: 'unreadable_response',
        message: 'The token endpoint sent no access token.',
      });
    }
    const expires = Number(body.expires_in);
    return {
      accessToken: body.access_token,
      expiresInSeconds: Number.isFinite(expires) && expires > 0 ? expires : ASSUMED_TOKEN_LIFETIME_SECONDS,
    };
  }

  private async fetch(url: URL, init: RequestInit, withdrawn?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(this.connection.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      return await (this.connection.fetch ?? fetch)(url, {
        ...init,
        signal: withdrawn ? AbortSignal.any([timeout, withdrawn]) : timeout,
        // Redirects are handled above, where it is known whether following one is safe.
        redirect: 'manual',
      });
    } catch (error) {
      if (withdrawn?.aborted)
        throw new CallFailed({
          ok: false,
          retryable: true,
          offline: false,
          code: 'withdrawn',
          message: 'The request was withdrawn before it completed.',
        });
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new CallFailed({
        ok: false,
        retryable: true,
        offline: true,
        code: timedOut ? 'timeout' : 'unreachable',
        message: timedOut
          ? 'The service did not answer in time.'
          : `The service cannot be reached: ${(await explainNetworkFailure(error, url)) ?? networkReason(error)}.`,
      });
    }
  }
}

function unreadable(message: string, status: number, raw: string): Failure {
  return {
    ok: false,
    retryable: false,
    offline: false,
    code: 'unreadable_response',
    message,
    status,
    raw: raw.slice(0, 10_000),
  };
}

/** A redirect that is not followed: a creation is never re-sent elsewhere, a read never leaves the service. */
function redirectFailure(response: Response, request: OutgoingRequest): Failure {
  const location = response.headers.get('location');
  const target = location ? new URL(location, request.url) : null;
  return {
    ok: false,
    retryable: false,
    offline: false,
    status: response.status,
    code: 'redirected',
    message: `The service sent this request elsewhere (${response.status} to ${target ? target.origin + target.pathname : 'no address'}); Evidence Desk does not follow it. Check the service address in Settings.`,
  };
}

function httpFailure(response: Response, raw: string): Failure {
  const retryable = isRetryableStatus(response.status);
  const said = errorMessageOf(raw);
  return {
    ok: false,
    retryable,
    offline: false,
    status: response.status,
    code: errorCodeOf(raw) ?? `http_${response.status}`,
    message: said
      ? `The service said: ${said}`
      : `The service answered ${response.status} ${response.statusText}.`,
    retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
    raw: raw.slice(0, 10_000),
  };
}

function failureOf(error: unknown): Failure {
  if (error instanceof CallFailed) return error.failure;
  // A response that cannot be read fails this one request, with the words why; it is not retried blindly.
  if (error instanceof UnreadableResponse)
    return {
      ok: false,
      retryable: false,
      offline: false,
      code: 'unreadable_response',
      message: error.message,
    };
  return {
    ok: false,
    retryable: true,
    offline: false,
    code: 'client_error',
    message: `The request could not be made: ${(error as Error).message}`,
  };
}

/** What the operating system said, in words a paralegal can act on (the code stays in the log). */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'nothing answers at that address (the service may be down, or the address wrong)',
  ENOTFOUND: 'that server name is unknown (check the address, or the network connection)',
  EAI_AGAIN: 'the server name could not be looked up (the network may be down)',
  ECONNRESET: 'the connection was cut off',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the server cannot be reached from this network',
  ENETUNREACH: 'this computer is not connected to a network',
  ECONNABORTED: 'the connection was cut off',
  UND_ERR_SOCKET: 'the connection was cut off',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
};

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  return NETWORK_REASONS[code] ?? cause?.message ?? (error as Error).message;
}
