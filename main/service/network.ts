/**
 * How the command line reaches the service on a corporate network: through the proxy named in
 * HTTPS_PROXY / HTTP_PROXY (NO_PROXY respected), trusting the operating system's certificate store,
 * NODE_EXTRA_CA_CERTS and a profile's own CA file. The app does not use this: its requests go
 * through Chromium's network stack (Electron's net.fetch), where the system proxy, PAC files and
 * the OS certificate store already apply.
 */
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import { requestFetch } from './request-fetch';

export type Fetch = (input: URL | string, init?: RequestInit) => Promise<Response>;

// Both arrived in Node 22.15/22.19 and are not ESM named exports: read as properties.
const tlsCa = tls as {
  getCACertificates?: (which: 'default' | 'system') => string[];
  setDefaultCACertificates?: (certificates: string[]) => void;
};

/** Every CA this computer trusts (bundled, NODE_EXTRA_CA_CERTS, system store), plus `extra` PEM text. */
export function trustedCertificates(extra: readonly string[] = []): string[] {
  const read = tlsCa.getCACertificates;
  const known = read ? [...read('default'), ...read('system')] : [...tls.rootCertificates];
  return [...new Set([...known, ...extra])];
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/**
 * The CLI's fetch. The trusted CAs become this process's defaults once, at the first request
 * (every TLS connection then uses them, at no cost per connection); undici's proxy agent is loaded
 * only when a proxy is configured, so a CLI without one starts as fast as before.
 */
export function commandLineFetch(options: { caFile?: string } = {}, env = process.env): Fetch {
  const extra = options.caFile ? [readFileSync(options.caFile, 'utf8')] : [];
  let proxied: Promise<Fetch> | undefined;
  let trusted = false;
  const trust = () => {
    if (trusted) return;
    trusted = true;
    if (tlsCa.setDefaultCACertificates) tlsCa.setDefaultCACertificates(trustedCertificates(extra));
  };
  // Without setDefaultCACertificates (older Node), the CAs go with each connection instead.
  const perConnection = tlsCa.setDefaultCACertificates ? undefined : trustedCertificates(extra);
  const proxy = PROXY_VARIABLES.some((name) => env[name]);
  const direct = requestFetch();
  return async (input, init) => {
    trust();
    if (!proxy && !perConnection) return direct(input, init);
    proxied ??= import('undici').then(({ EnvHttpProxyAgent, fetch: undiciFetch }) => {
      const ca = perConnection ? { ca: perConnection } : {};
      // connect: straight to the service; requestTls: through a proxy's tunnel; proxyTls: to an https proxy.
      const dispatcher = new EnvHttpProxyAgent({ connect: ca, requestTls: ca, proxyTls: ca });
      return requestFetch(
        dispatcher,
        (url, request) =>
          undiciFetch(url, { ...(request as object), dispatcher }) as unknown as Promise<Response>,
      );
    });
    return (await proxied)(input, init);
  };
}
