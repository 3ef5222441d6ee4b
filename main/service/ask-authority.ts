import { createHash, randomFillSync } from 'node:crypto';
import { bytesToBase64 } from '../../verifier/bytes';
import {
  TIMESTAMP_QUERY,
  freshNonce,
  readTimestampResponse,
  timestampRequest,
} from '../../verifier/timestamp/exchange';
import { checkTimestampToken } from '../../verifier/timestamp/token';
import type { TreeHash } from '../../verifier/evidence-record/hash-tree';
import type { Fetch } from './network';
import { retryAfterMs } from './retry-policy';
import { hostOf } from './authority-host';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';

/** A timestamping authority as the engine uses it: its address, policy and the roots it must chain to. */
export interface Authority {
  url: string;
  policyOid?: string;
  /** DER of the trusted root certificates (and any intermediates the user gave). */
  certificates: Uint8Array[];
  trustedRoots: string[];
  /** The least time between two requests that the authority asks for (0: none named). */
  minIntervalMs: number;
}

export type AuthorityAnswer =
  | { ok: true; token: string; authority: string; genTime: number; chain: string[] }
  | {
      ok: false;
      problem: Said;
      /** The authority said when it may be asked again (429 or 503 with Retry-After), ms since the epoch. */
      retryAt?: number;
    };

/**
 * One RFC 3161 request over some bytes (a batch root, a PDF's signed range), and every check on the answer before it is kept. Whatever
 * goes wrong comes back as a sentence for the row ("why not yet"), never as an exception.
 */
export async function askAuthority(
  fetch: Fetch,
  authority: Authority,
  data: Uint8Array,
  timeoutMs: number,
  /** Ends the request early: the process is closing (the caller then knows it asked and got no answer). */
  stop?: AbortSignal,
  /** `data` is the imprint itself, of this hash: an RFC 4998 hash tree's root, timestamped as it is. */
  digestOf?: TreeHash,
): Promise<AuthorityAnswer> {
  const nonce = freshNonce((bytes) => randomFillSync(bytes));
  // Hashed here, natively, once: a sealed PDF's range is tens of kilobytes, for every PDF of a kit.
  const dataSha256 = digestOf ? data : createHash('sha256').update(data).digest();
  const host = hostOf(authority.url);
  let body: Uint8Array;
  try {
    const response = await fetch(authority.url, {
      method: 'POST',
      headers: { 'content-type': TIMESTAMP_QUERY, accept: 'application/timestamp-reply' },
      body: timestampRequest(dataSha256, nonce, authority.policyOid, digestOf) as BodyInit,
      signal: stop ? AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]) : AbortSignal.timeout(timeoutMs),
    });
    if (response.status === 429 || response.status === 503) {
      const wait = retryAfterMs(response.headers.get('retry-after'));
      const retryAt = wait === undefined ? null : Date.now() + wait;
      return {
        ok: false,
        problem:
          retryAt === null
            ? said('timestamp.httpStatus', { host, status: response.status })
            : said('timestamp.rationed', { host, until: new Date(retryAt).toISOString() }),
        ...(retryAt === null ? {} : { retryAt }),
      };
    }
    if (!response.ok)
      return { ok: false, problem: said('timestamp.httpStatus', { host, status: response.status }) };
    if (/text\/html/i.test(response.headers.get('content-type') ?? ''))
      return {
        ok: false,
        problem: said('timestamp.webPage', { host }),
      };
    body = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    const name = (error as Error).name;
    return {
      ok: false,
      problem:
        name === 'TimeoutError' || name === 'AbortError'
          ? said('timestamp.timeout', { host, seconds: Math.round(timeoutMs / 1000) })
          : said('timestamp.unreachable', { host }),
    };
  }
  const read = readTimestampResponse(body);
  if ('refused' in read)
    return {
      ok: false,
      problem: read.refused.said
        ? said('timestamp.refusedSaying', {
            host,
            what: statusWords(read.refused.status),
            said: read.refused.said,
          })
        : said('timestamp.refused', { host, what: statusWords(read.refused.status) }),
    };
  if ('unreadable' in read)
    return {
      ok: false,
      problem: said(read.unreadable === 'no_token' ? 'timestamp.noToken' : 'timestamp.notAResponse', {
        host,
      }),
    };
  const check = await checkTimestampToken(read.token, {
    data,
    dataSha256,
    imprintIsDigest: digestOf !== undefined,
    imprintAlgorithm: digestOf ?? 'sha256',
    nonce,
    certificates: authority.certificates,
    trustedRoots: authority.trustedRoots,
  });
  if (!check.ok)
    return {
      ok: false,
      problem:
        check.check === 'untrusted'
          ? said('timestamp.check.untrusted', {
              authority: check.authority,
              fingerprint: check.rootFingerprint,
            })
          : said(`timestamp.check.${check.check}`, { host }),
    };
  return {
    ok: true,
    token: bytesToBase64(read.token),
    authority: check.authority,
    genTime: check.genTime.getTime(),
    chain: check.chain.map(bytesToBase64),
  };
}

/** An authority's PKIStatus, in words (RFC 3161 §2.4.2). */
function statusWords(status: number): Said {
  const known: Record<number, Said> = {
    2: said('timestamp.status.rejected'),
    3: said('timestamp.status.waiting'),
    4: said('timestamp.status.revocationWarning'),
    5: said('timestamp.status.revoked'),
  };
  return known[status] ?? said('timestamp.status.other', { status });
}
