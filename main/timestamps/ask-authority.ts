import { randomFillSync } from 'node:crypto';
import { bytesToBase64 } from '../../verifier/bytes';
import {
  TIMESTAMP_QUERY,
  freshNonce,
  readTimestampResponse,
  timestampRequest,
} from '../../verifier/timestamp/exchange';
import { checkTimestampToken } from '../../verifier/timestamp/token';
import type { Fetch } from '../service/network';

/** A timestamping authority as the engine uses it: its address, policy and the roots it must chain to. */
export interface Authority {
  url: string;
  policyOid?: string;
  /** DER of the trusted root certificates (and any intermediates the user gave). */
  certificates: Uint8Array[];
  trustedRoots: string[];
}

export type AuthorityAnswer =
  | { ok: true; token: string; authority: string; genTime: number; chain: string[] }
  | { ok: false; problem: string };

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : url);

/**
 * One RFC 3161 request over some bytes (a batch root, a PDF's signed range), and every check on the answer before it is kept. Whatever
 * goes wrong comes back as a sentence for the row ("why not yet"), never as an exception.
 */
export async function askAuthority(
  fetch: Fetch,
  authority: Authority,
  data: Uint8Array,
  timeoutMs: number,
): Promise<AuthorityAnswer> {
  const nonce = freshNonce((bytes) => randomFillSync(bytes));
  const host = hostOf(authority.url);
  let body: Uint8Array;
  try {
    const response = await fetch(authority.url, {
      method: 'POST',
      headers: { 'content-type': TIMESTAMP_QUERY, accept: 'application/timestamp-reply' },
      body: timestampRequest(data, nonce, authority.policyOid) as BodyInit,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok)
      return { ok: false, problem: `The timestamping authority (${host}) answered HTTP ${response.status}.` };
    if (/text\/html/i.test(response.headers.get('content-type') ?? ''))
      return {
        ok: false,
        problem: `The timestamping authority's address (${host}) answered with a web page, not a timestamp: check the address, or whether a proxy or sign-in page is in the way.`,
      };
    body = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    const name = (error as Error).name;
    return {
      ok: false,
      problem:
        name === 'TimeoutError' || name === 'AbortError'
          ? `The timestamping authority (${host}) did not answer within ${Math.round(timeoutMs / 1000)} seconds.`
          : `The timestamping authority (${host}) could not be reached.`,
    };
  }
  const read = readTimestampResponse(body);
  if ('refused' in read) return { ok: false, problem: read.refused };
  if ('unreadable' in read) return { ok: false, problem: `${read.unreadable} (${host})` };
  const check = await checkTimestampToken(read.token, {
    data,
    nonce,
    certificates: authority.certificates,
    trustedRoots: authority.trustedRoots,
  });
  if (!check.ok) return { ok: false, problem: check.message };
  return {
    ok: true,
    token: bytesToBase64(read.token),
    authority: check.authority,
    genTime: check.genTime.getTime(),
    chain: check.chain.map(bytesToBase64),
  };
}
