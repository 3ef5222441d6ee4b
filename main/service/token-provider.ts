import { said } from '../../protocol/said';
import { notJson } from './network-errors';
import { CallFailed, failure, httpFailure } from './service-failures';

/** An access token and when it should be renewed (before it expires, not after). */
export interface AccessToken {
  value: string;
  renewAt: number;
}

export type FetchToken = () => Promise<{ accessToken: string; expiresInSeconds: number }>;

// Renew at 80 % of the lifetime, so a token never expires on the wire.
const RENEW_AT_SHARE = 0.8;

/**
 * Client-credentials tokens, cached and renewed before expiry. Concurrent callers share one
 * renewal; `invalidate` drops a token the API refused so the next caller fetches a new one.
 */
export class TokenProvider {
  private current: AccessToken | undefined;
  private renewal: Promise<AccessToken> | undefined;

  constructor(
    private readonly fetchToken: FetchToken,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return this.current.value;
    this.renewal ??= this.renew().finally(() => {
      this.renewal = undefined;
    });
    return (await this.renewal).value;
  }

  /** Forgets the token if it is still the one that was refused (another caller may have renewed it). */
  invalidate(refused: string): void {
    if (this.current?.value === refused) this.current = undefined;
  }

  private async renew(): Promise<AccessToken> {
    const fetched = await this.fetchToken();
    const lifetimeMs = Math.max(1, fetched.expiresInSeconds) * 1000;
    this.current = { value: fetched.accessToken, renewAt: this.now() + lifetimeMs * RENEW_AT_SHARE };
    return this.current;
  }
}

// The spec does not show the token lifetime; absent an expires_in we assume a short one.
const ASSUMED_TOKEN_LIFETIME_SECONDS = 60;

/**
 * One client-credentials token from the token endpoint. A refusal (400, 401) is `auth_failed`
 * with the service's words; anything unreadable fails with what was wrong with it.
 */
export async function requestToken(
  connection: { tokenUrl: string; clientId: string; clientSecret: string },
  send: (url: URL, init: RequestInit) => Promise<Response>,
): Promise<{ accessToken: string; expiresInSeconds: number }> {
  const response = await send(new URL(connection.tokenUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: connection.clientId,
      client_secret: connection.clientSecret,
    }).toString(),
  });
  const raw = await response.text();
  if (!response.ok) {
    const refused = httpFailure(response, raw);
    if (response.status === 400 || response.status === 401)
      throw new CallFailed(
        failure({
          ...refused,
          retryable: true,
          code: 'auth_failed',
          said: said('service.credentialsRefused', { reason: refused.said }),
        }),
      );
    throw new CallFailed(refused);
  }
  const refuse = (saying: ReturnType<typeof said>) =>
    new CallFailed(failure({ retryable: true, offline: false, code: 'unreadable_response', said: saying }));
  let body: { access_token?: unknown; expires_in?: unknown };
  try {
    body = JSON.parse(raw) as typeof body;
  } catch {
    throw refuse(notJson(response, raw, 'service.tokenNotJson'));
  }
  if (typeof body.access_token !== 'string' || !body.access_token)
    throw refuse(said('service.noAccessToken'));
  const expires = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    expiresInSeconds: Number.isFinite(expires) && expires > 0 ? expires : ASSUMED_TOKEN_LIFETIME_SECONDS,
  };
}
