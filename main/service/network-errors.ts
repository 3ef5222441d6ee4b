/**
 * What a network failure means, in words a person can act on: a proxy that wants a password or
 * refuses, a certificate this computer does not trust (naming who issued it), a captive portal.
 */
import { connect } from 'node:tls';

const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

/** What went wrong under a fetch that got no answer, for the proxy and TLS cases; null for others. */
export async function explainNetworkFailure(error: unknown, url: URL): Promise<string | null> {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  // A proxy's refusal sits a few causes deep (fetch failed ← request cancelled ← proxy response).
  const messages: string[] = [];
  for (let link: unknown = error; link instanceof Error && messages.length < 6; link = link.cause)
    messages.push(link.message);
  const text = messages.join(' ');
  // In the app, requests go through Chromium (net.fetch), whose failures are net::ERR_… names.
  if (/net::ERR_(PROXY_AUTH_UNSUPPORTED|PROXY_AUTH_REQUESTED|PROXY_AUTHENTICATION)/.test(text))
    return 'the proxy asks for a user name and password that Evidence Desk was not given: ask IT to let Evidence Desk through, or to set the proxy up for this computer';
  if (/net::ERR_(TUNNEL_CONNECTION_FAILED|PROXY_CONNECTION_FAILED)/.test(text))
    return `the proxy refused or could not make the connection: ask IT to allow ${url.host}`;
  if (/net::ERR_CERT_(AUTHORITY_INVALID|INVALID)/.test(text))
    return `the certificate presented for ${url.host} is not trusted on this computer. If your organisation inspects TLS traffic, ask IT to install its CA certificate in the system's certificate store`;
  if (/net::ERR_CERT_DATE_INVALID/.test(text)) return `the service's certificate has expired (${url.host})`;
  if (/net::ERR_CERT_COMMON_NAME_INVALID/.test(text))
    return `the certificate presented is not for ${url.hostname}: something on the network may be intercepting the connection`;
  if (/\b407\b/.test(text))
    return 'the proxy asks for a user name and password: give them in the proxy address (HTTPS_PROXY=http://user:password@proxy:port), or ask IT for a proxy that lets Evidence Desk through';
  if (/Proxy response \((\d+)\)/.test(text))
    return `the proxy refused the connection (${/Proxy response \((\d+)\)/.exec(text)?.[1]}): ask IT to allow ${url.host}`;
  if (cause?.code === 'CERT_HAS_EXPIRED') return `the service's certificate has expired (${url.host})`;
  if (cause?.code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the certificate presented is not for ${url.hostname}: something on the network may be intercepting the connection`;
  if (cause?.code && CERTIFICATE_CODES.has(cause.code)) {
    const issuer = await issuerOf(url);
    return `the certificate presented for ${url.host}${issuer ? `, issued by "${issuer}",` : ''} is not trusted on this computer. If your organisation inspects TLS traffic, ask IT for its CA certificate and give it with NODE_EXTRA_CA_CERTS or "profile set --ca-file"`;
  }
  return null;
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

export const CAPTIVE_PORTAL_MESSAGE =
  'Something answered with a web page instead of the service’s data: a Wi-Fi or proxy sign-in page, or a maintenance page. If a web browser shows a sign-in page, sign in to the network, then try again.';
