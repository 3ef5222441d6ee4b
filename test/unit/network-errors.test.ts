import { describe, expect, it } from 'vitest';
import { inEnglish } from '../../protocol/locales';
import { said } from '../../protocol/said';
import { explainNetworkFailure, looksLikeCaptivePortal } from '../../main/service/network-errors';

const explained = async (error: Error) => {
  const saying = await explainNetworkFailure(error, url);
  return saying && inEnglish(saying);
};

// The app's requests go through Electron's net.fetch, which cannot run here; its failures are
// errors whose messages carry Chromium's net::ERR_… names, built here in that shape. (The command
// line's failures are tested for real through tinyproxy: test/core/corporate-network.test.ts.)
const url = new URL('https://certify.example.com/v1/certifications');
const chromium = (name: string) => new Error(`net::${name}`);

describe('a network failure, in words', () => {
  it('names what Chromium reports for proxies and certificates', async () => {
    expect(await explained(chromium('ERR_PROXY_AUTH_UNSUPPORTED'))).toMatch(
      /^the proxy asks for a user name and password/,
    );
    expect(await explained(chromium('ERR_TUNNEL_CONNECTION_FAILED'))).toMatch(
      /ask IT to allow certify\.example\.com/,
    );
    expect(await explained(chromium('ERR_CERT_AUTHORITY_INVALID'))).toMatch(
      /not trusted on this computer\. If your organisation inspects TLS traffic, ask IT to install its CA certificate/,
    );
    expect(await explained(chromium('ERR_CERT_DATE_INVALID'))).toMatch(/has expired/);
    expect(await explained(new Error('fetch failed'))).toBeNull();
  });

  it('tells a captive portal’s web page from the service’s answer', () => {
    expect(looksLikeCaptivePortal('text/html; charset=utf-8', '')).toBe(true);
    expect(looksLikeCaptivePortal(null, '  <!DOCTYPE html><html>')).toBe(true);
    expect(looksLikeCaptivePortal('application/json', '{"certification_id":"c1"}')).toBe(false);
    expect(inEnglish(said('service.captivePortal'))).toMatch(/sign in to the network/);
  });
});
