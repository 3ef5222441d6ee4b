import { describe, expect, it } from 'vitest';
import {
  CAPTIVE_PORTAL_MESSAGE,
  explainNetworkFailure,
  looksLikeCaptivePortal,
} from '../../main/service/network-errors';

// The app's requests go through Electron's net.fetch, which cannot run here; its failures are
// errors whose messages carry Chromium's net::ERR_… names, built here in that shape. (The command
// line's failures are tested for real through tinyproxy: test/core/corporate-network.test.ts.)
const url = new URL('https://certify.example.com/v1/certifications');
const chromium = (name: string) => new Error(`net::${name}`);

describe('a network failure, in words', () => {
  it('names what Chromium reports for proxies and certificates', async () => {
    expect(await explainNetworkFailure(chromium('ERR_PROXY_AUTH_UNSUPPORTED'), url)).toMatch(
      /^the proxy asks for a user name and password/,
    );
    expect(await explainNetworkFailure(chromium('ERR_TUNNEL_CONNECTION_FAILED'), url)).toMatch(
      /ask IT to allow certify\.example\.com/,
    );
    expect(await explainNetworkFailure(chromium('ERR_CERT_AUTHORITY_INVALID'), url)).toMatch(
      /not trusted on this computer\. If your organisation inspects TLS traffic, ask IT to install its CA certificate/,
    );
    expect(await explainNetworkFailure(chromium('ERR_CERT_DATE_INVALID'), url)).toMatch(/has expired/);
    expect(await explainNetworkFailure(new Error('fetch failed'), url)).toBeNull();
  });

  it('tells a captive portal’s web page from the service’s answer', () => {
    expect(looksLikeCaptivePortal('text/html; charset=utf-8', '')).toBe(true);
    expect(looksLikeCaptivePortal(null, '  <!DOCTYPE html><html>')).toBe(true);
    expect(looksLikeCaptivePortal('application/json', '{"certification_id":"c1"}')).toBe(false);
    expect(CAPTIVE_PORTAL_MESSAGE).toMatch(/sign in to the network/);
  });
});
