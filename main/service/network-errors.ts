/**
 * What a network failure means, in words a person can act on: a proxy that wants a password or
 * refuses, a certificate this computer does not trust (naming who issued it), a captive portal.
 */
import { connect } from 'node:tls';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';

const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

/** What went wrong under a fetch that got no answer, for the proxy and TLS cases; null for others. */
export async function explainNetworkFailure(error: unknown, url: URL): Promise<Said | null> {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  // A proxy's refusal sits a few causes deep (fetch failed ← request cancelled ← proxy response).
  const messages: string[] = [];
  for (let link: unknown = error; link instanceof Error && messages.length < 6; link = link.cause)
    messages.push(link.message);
  const text = messages.join(' ');
  const host = url.host;
  // In the app, requests go through Chromium (net.fetch), whose failures are net::ERR_… names.
  if (/net::ERR_(PROXY_AUTH_UNSUPPORTED|PROXY_AUTH_REQUESTED|PROXY_AUTHENTICATION)/.test(text))
    return said('network.proxyWantsPassword');
  if (/net::ERR_(TUNNEL_CONNECTION_FAILED|PROXY_CONNECTION_FAILED)/.test(text))
    return said('network.proxyRefused', { host });
  if (/net::ERR_CERT_(AUTHORITY_INVALID|INVALID)/.test(text))
    return said('network.certificateUntrusted', { host });
  if (/net::ERR_CERT_DATE_INVALID/.test(text)) return said('network.certificateExpired', { host });
  if (/net::ERR_CERT_COMMON_NAME_INVALID/.test(text))
    return said('network.certificateWrongName', { host: url.hostname });
  if (/\b407\b/.test(text)) return said('network.proxyWantsPasswordHere');
  const proxyStatus = /Proxy response \((\d+)\)/.exec(text)?.[1];
  if (proxyStatus) return said('network.proxyRefusedStatus', { status: proxyStatus, host });
  if (cause?.code === 'CERT_HAS_EXPIRED') return said('network.certificateExpired', { host });
  if (cause?.code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return said('network.certificateWrongName', { host: url.hostname });
  if (cause?.code && CERTIFICATE_CODES.has(cause.code)) {
    const issuer = await issuerOf(url);
    return issuer
      ? said('network.certificateUntrustedIssuer', { host, issuer })
      : said('network.certificateUntrustedHere', { host });
  }
  return null;
}

/** What the operating system said, in words a paralegal can act on (the code stays in the log). */
const NETWORK_REASONS = new Map<string, Said>([
  ['ECONNREFUSED', said('network.refused')],
  ['ENOTFOUND', said('network.unknownName')],
  ['EAI_AGAIN', said('network.lookupFailed')],
  ['ECONNRESET', said('network.cutOff')],
  ['ETIMEDOUT', said('network.timedOut')],
  ['EHOSTUNREACH', said('network.hostUnreachable')],
  ['ENETUNREACH', said('network.noNetwork')],
  ['ECONNABORTED', said('network.cutOff')],
  ['UND_ERR_SOCKET', said('network.cutOff')],
  ['UND_ERR_CONNECT_TIMEOUT', said('network.timedOut')],
]);

export function networkReason(error: unknown): Said {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return (
    NETWORK_REASONS.get(cause?.code ?? '') ??
    said('network.other', { detail: cause?.message ?? (error as Error).message })
  );
}

/** Who issued the certificate a server presents, read without trusting it (for the message only). */
function issuerOf(url: URL): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({
      host: url.hostname,
      port: Number(url.port || 443),
      servername: /^[\d.]+$/.test(url.hostname) ? undefined : url.hostname,
      rejectUnauthorized: false,
      timeout: 3000,
    });
    const done = (issuer: string | null) => {
      socket.destroy();
      resolve(issuer);
    };
    socket.once('secureConnect', () => {
      const issuer = socket.getPeerCertificate().issuer;
      done((issuer?.CN ?? issuer?.O ?? null) as string | null);
    });
    socket.once('error', () => done(null));
    socket.once('timeout', () => done(null));
  });
}

/** An answer that is a web page where the service speaks JSON: a captive portal or a proxy's login page. */
export const looksLikeCaptivePortal = (contentType: string | null, raw: string): boolean =>
  /text\/html/i.test(contentType ?? '') || /^\s*<(!doctype html|html)/i.test(raw);

/** What to say of an answer that is not JSON: a sign-in page when it looks like one, else `otherwise`. */
export const notJson = (
  response: Response,
  raw: string,
  otherwise: 'service.notJson' | 'service.tokenNotJson',
): Said =>
  said(
    looksLikeCaptivePortal(response.headers.get('content-type'), raw) ? 'service.captivePortal' : otherwise,
  );
