import { describe, expect, it } from 'vitest';
import { errorMessageOf, readCertification, UnreadableResponse } from '../../main/service/response-reader';
import { backoffDelay, isRetryableStatus, pollDelay, retryAfterMs } from '../../main/service/retry-policy';
import { TokenProvider } from '../../main/service/token-provider';
import { said } from '../../protocol/said';

describe('reading what the real service may send', () => {
  it('takes the id from id or certification_id, as a string or a number', () => {
    expect(readCertification({ id: 'c1', state: 'pending' }).serviceId).toBe('c1');
    expect(readCertification({ certification_id: 42, status: 'PENDING' }).serviceId).toBe('42');
    expect(readCertification({ state: 'anchored' }, 'known-id').serviceId).toBe('known-id');
  });

  it('takes the state from state or status, in any case, and keeps unknown states in progress', () => {
    expect(readCertification({ id: 'a', status: 'ANCHORED' }).progress).toBe('anchored');
    expect(
      readCertification({ id: 'a', state: 'Rejected', error: { message: 'hash blocked' } }),
    ).toMatchObject({ progress: 'failed', failureMessage: 'hash blocked' });
    expect(readCertification({ id: 'a', state: 'queued_for_notary', extra: { x: 1 } })).toMatchObject({
      progress: 'in_progress',
      serviceState: 'queued_for_notary',
    });
    expect(readCertification({ id: 'a' })).toMatchObject({ progress: 'in_progress', serviceState: null });
  });

  it('turns what cannot be a certification into a clear error', () => {
    expect(() => readCertification([1, 2])).toThrow(UnreadableResponse);
    expect(() => readCertification('ok')).toThrow(UnreadableResponse);
    expect(() => readCertification({ state: 'pending' })).toThrow(
      expect.objectContaining({ said: said('service.noId') }),
    );
    expect(() => readCertification({ id: { nested: true } })).toThrow(
      expect.objectContaining({ said: said('service.noId') }),
    );
  });

  it('finds the most human sentence in any error body', () => {
    expect(errorMessageOf('{"type":"x","detail":"Bad hash"}')).toBe('Bad hash');
    expect(errorMessageOf('{"error":"invalid_client","error_description":"Wrong secret"}')).toBe(
      'Wrong secret',
    );
    expect(errorMessageOf('Service Unavailable')).toBe('Service Unavailable');
    expect(errorMessageOf('<html><body>502</body></html>')).toBeUndefined();
    expect(errorMessageOf('')).toBeUndefined();
  });
});

describe('retry policy', () => {
  it('backs off exponentially with full jitter under a cap', () => {
    const options = { baseMs: 1000, capMs: 8000 };
    expect(backoffDelay(0, options, () => 0.999)).toBe(999);
    expect(backoffDelay(2, options, () => 0.5)).toBe(2000);
    expect(backoffDelay(10, options, () => 0.999)).toBe(7992);
    expect(backoffDelay(3, options, () => 0)).toBe(0);
  });

  it('honours Retry-After in seconds or as a date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });

  it('retries what may succeed later and nothing else', () => {
    expect([408, 409, 429, 500, 502, 503].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 415, 422].some(isRetryableStatus)).toBe(false);
    expect([0, 1, 2, 6, 20].map((polls) => pollDelay(polls))).toEqual([1000, 2000, 4000, 60_000, 60_000]);
  });
});

describe('token provider', () => {
  it('caches a token, renews it at 80 % of its lifetime, and shares one renewal among callers', async () => {
    let now = 0;
    let fetches = 0;
    let release: () => void = () => undefined;
    const provider = new TokenProvider(
      async () => {
        fetches++;
        await new Promise<void>((resolve) => (release = resolve));
        return { accessToken: `t${fetches}`, expiresInSeconds: 10 };
      },
      () => now,
    );
    const concurrent = Promise.all([provider.get(), provider.get(), provider.get()]);
    await Promise.resolve();
    release();
    expect(await concurrent).toEqual(['t1', 't1', 't1']);
    now = 7_999;
    expect(await provider.get()).toBe('t1');
    now = 8_000;
    const renewed = provider.get();
    await Promise.resolve();
    release();
    expect(await renewed).toBe('t2');
    provider.invalidate('t1');
    expect(await provider.get()).toBe('t2');
    provider.invalidate('t2');
    const afterRefusal = provider.get();
    await Promise.resolve();
    release();
    expect(await afterRefusal).toBe('t3');
    expect(fetches).toBe(3);
  });
});
