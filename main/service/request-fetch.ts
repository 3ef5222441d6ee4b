import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import type { Fetch } from './network';

// Statuses whose answer has no body: a Response refuses to be made with one.
const NULL_BODY = new Set([101, 204, 205, 304]);
// What fetch sends: a firewall that turns away requests naming no agent lets these through too.
const USER_AGENT = 'node';
// A body compressed without being asked, read as fetch would read it.
const DECODERS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * fetch, for the requests that follow no redirect and send text or bytes, made with undici's
 * `request` instead: fetch's streams cost 430–700 µs of processor per request on loopback,
 * `request` 80–160, and sending a million certifications is bound by the client's processor.
 * Everything else (a redirect to follow, a form body) goes to `fallback` unchanged. Failures
 * look as fetch's do: the abort's reason, or "fetch failed" with the network's error as cause.
 * undici is loaded at the first request, so a command that sends nothing starts without it.
 */
export function requestFetch(dispatcher?: Dispatcher, fallback: Fetch = fetch): Fetch {
  let loaded: Promise<typeof Undici> | undefined;
  return async (input, init = {}) => {
    const { body } = init;
    const sendable =
      body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
    if (init.redirect !== 'manual' || !sendable) return fallback(input, init);
    const url = String(input);
    try {
      const { request } = await (loaded ??= import('undici'));
      const headers = new Headers(init.headers);
      if (!headers.has('user-agent')) headers.set('user-agent', USER_AGENT);
      const answer = await request(url, {
        method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
        headers,
        body: body ?? null,
        signal: init.signal ?? null,
        ...(dispatcher ? { dispatcher } : {}),
      });
      if (!NULL_BODY.has(answer.statusCode)) return responseOf(answer, url, await answer.body.bytes());
      // A body sent anyway is read and dropped, so the connection is free for the next request.
      await answer.body.dump();
      return responseOf(answer, url, null);
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }
  };
}

/** The answer as fetch gives it: the body decoded as its Content-Encoding says, any status kept. */
function responseOf(answer: Dispatcher.ResponseData, url: string, body: Uint8Array | null): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers))
    for (const one of Array.isArray(value) ? value : [value])
      if (one !== undefined) headers.append(name, one);
  const decode = DECODERS[headers.get('content-encoding')?.trim().toLowerCase() ?? ''];
  const bytes = body && decode ? decode(Buffer.from(body)) : body;
  // A Response is made with a status of 200–599 only; fetch keeps whatever the server said (a 999).
  const { statusCode: status, statusText } = answer;
  const lawful = status >= 200 && status <= 599;
  const response = new Response(bytes as BodyInit | null, { status: lawful ? status : 200, headers });
  Object.defineProperties(response, {
    // Made here, it has no address or status text of its own: fetch's has the server's.
    url: { value: url },
    statusText: { value: statusText },
    ...(lawful ? {} : { status: { value: status }, ok: { value: false } }),
  });
  return response;
}
