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
