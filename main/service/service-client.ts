import { randomUUID } from 'node:crypto';
import type { CertificationRequest } from '../../protocol/certification-request';
import { said } from '../../protocol/said';
import type { Fetch } from './network';
import { explainNetworkFailure, networkReason, notJson } from './network-errors';
import { requestFetch } from './request-fetch';
import type { SigningKeys } from './request-signer';
import { signRequest } from './request-signer';
import type { CertificationReading } from './response-reader';
import { UnreadableResponse, readCertification, readConsistency, readLogKey } from './response-reader';
import type { ServiceAnswer } from './service-failures';
import { CallFailed, failure, failureOf, httpFailure, redirectFailure, unreadable } from './service-failures';
import { TokenProvider, requestToken } from './token-provider';

// Where no network is given (tests, the benchmarks): fetch's behaviour, with undici's request.
const directFetch = requestFetch();

export type { ServiceAnswer, ServiceFailure } from './service-failures';

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

/**
 * The Evidence Certification Service over HTTP: one attempt per call (the sync engine owns
 * retries, so they survive restarts), a token renewed before expiry and once more on 401.
 */
export class ServiceClient {
  private readonly tokens: TokenProvider;

  constructor(private readonly connection: ServiceConnection) {
    this.tokens = new TokenProvider(() => requestToken(connection, (url, init) => this.fetch(url, init)));
  }

  /** `signal` withdraws the request: before it is sent, nothing goes on the wire at all. */
  createCertification(
    input: CertificationRequest,
    requestId: string,
    signal?: AbortSignal,
  ): Promise<ServiceAnswer<CertificationReading>> {
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

  readCertification(serviceId: string, signal?: AbortSignal): Promise<ServiceAnswer<CertificationReading>> {
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
  fetchLogKey(): Promise<ServiceAnswer<string>> {
    return this.call('GET', '/v1/log/public-key', randomUUID(), undefined, readLogKey, false);
  }

  /** A consistency proof between two sizes of the log (docs/api.md); a service without the endpoint answers 404. */
  fetchConsistency(first: number, second: number): Promise<ServiceAnswer<string[]>> {
    return this.call(
      'GET',
      `/v1/log/consistency?first=${first}&second=${second}`,
      randomUUID(),
      undefined,
      readConsistency,
      false,
    );
  }

  /** Fetches a token and says in plain words whether that worked. */
  async testConnection(): Promise<ServiceAnswer<{ expiresInSeconds: number }>> {
    try {
      const token = await requestToken(this.connection, (url, init) => this.fetch(url, init));
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
    withdrawn?: AbortSignal,
  ): Promise<ServiceAnswer<T>> {
    // Withdrawal reaches this call's requests and their answers' bodies, and lets go after it.
    const link = withdrawn ? linkTo(withdrawn) : undefined;
    const signal = link?.signal;
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
      if (isRedirect(response.status)) return redirectFailure(response, request.url);
      const raw = await response.text();
      if (!response.ok) return httpFailure(response, raw);
      if (raw.trim() === '') return this.readLocation(response, read, authenticated, withdrawn);
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return unreadable(notJson(response, raw, 'service.notJson'), response.status, raw);
      }
      try {
        return { ok: true, value: read(json), raw };
      } catch (error) {
        // A 2xx that is not what was asked for fails this one request; its raw answer is kept.
        if (error instanceof UnreadableResponse) return unreadable(error.said, response.status, raw);
        throw error;
      }
    } catch (error) {
      return failureOf(error);
    } finally {
      link?.release();
    }
  }

  /** An accepted request answered with no body (202 and a Location): the certification is read there. */
  private readLocation<T>(
    response: Response,
    read: (json: unknown) => T,
    authenticated: boolean,
    signal?: AbortSignal,
  ): Promise<ServiceAnswer<T>> {
    const location = response.headers.get('location');
    const target = location ? new URL(location, response.url || this.connection.baseUrl) : null;
    if (!target || target.origin !== this.urlOf('').origin)
      return Promise.resolve(
        unreadable(said('service.nothingToRead', { status: response.status }), response.status, ''),
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

  private async fetch(url: URL, init: RequestInit, withdrawn?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(this.connection.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      return await (this.connection.fetch ?? directFetch)(url, {
        ...init,
        signal: withdrawn ? AbortSignal.any([timeout, withdrawn]) : timeout,
        // Redirects are handled above, where it is known whether following one is safe.
        redirect: 'manual',
      });
    } catch (error) {
      if (withdrawn?.aborted)
        throw new CallFailed(
          failure({ retryable: true, offline: false, code: 'withdrawn', said: said('service.withdrawn') }),
        );
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new CallFailed(
        failure({
          retryable: true,
          offline: true,
          code: timedOut ? 'timeout' : 'unreachable',
          said: timedOut
            ? said('service.timeout')
            : said('service.unreachable', {
                reason: (await explainNetworkFailure(error, url)) ?? networkReason(error),
              }),
        }),
      );
    }
  }
}

/**
 * A signal aborted when `lasting` is, for one call. Joining the round's own signal to every
 * request (AbortSignal.any) kept a weak reference on it per request until the round ended: 200
 * bytes a request over a round of a million sends. A link per call is let go once its answer is read.
 */
function linkTo(lasting: AbortSignal): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const withdraw = () => controller.abort(lasting.reason);
  if (lasting.aborted) withdraw();
  else lasting.addEventListener('abort', withdraw, { once: true });
  return { signal: controller.signal, release: () => lasting.removeEventListener('abort', withdraw) };
}
