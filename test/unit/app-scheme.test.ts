import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../protocol/content-security-policy';
import {
  APP_ENTRY,
  isAppPage,
  isDocumentationAddress,
  rendererFileFor,
} from '../../main/desktop-policy/app-scheme';

const root = join('/opt', 'Evidence Desk', 'renderer');

describe('the app:// scheme the renderer is served from', () => {
  it('serves the renderer’s files by path, with their types', () => {
    expect(rendererFileFor(root, APP_ENTRY)).toEqual({
      file: join(root, 'index.html'),
      type: 'text/html; charset=utf-8',
    });
    expect(rendererFileFor(root, 'app://evidence-desk/assets/index-1a2b.js')).toEqual({
      file: join(root, 'assets', 'index-1a2b.js'),
      type: 'text/javascript; charset=utf-8',
    });
  });

  it('never names a file outside the renderer folder, and refuses other hosts and schemes', () => {
    // Climbing paths are either folded back inside by URL parsing or refused; none escapes.
    for (const address of [
      'app://evidence-desk/../../etc/passwd',
      'app://evidence-desk/%2e%2e/%2e%2e/etc/passwd',
      'app://evidence-desk/assets/%2E%2E%2F%2E%2E%2F..%2Fsecrets',
      'app://evidence-desk/..%5C..%5Cwindows',
    ]) {
      const served = rendererFileFor(root, address);
      expect(served === null || served.file.startsWith(root + sep), `${address} → ${served?.file}`).toBe(
        true,
      );
    }
    expect(rendererFileFor(root, 'app://evidence-desk/assets/%2E%2E%2F%2E%2E%2F..%2Fsecrets')).toBeNull();
    for (const address of [
      'app://evidence-desk/index.html%00.png',
      'app://evidence-desk/%E0%A4%A',
      'app://other-host/index.html',
      'file:///etc/passwd',
      'not an address',
    ])
      expect(rendererFileFor(root, address), address).toBeNull();
  });

  it('lets only the app’s own page call into main', () => {
    expect(isAppPage('app://evidence-desk/index.html')).toBe(true);
    expect(isAppPage('file:///opt/Evidence%20Desk/renderer/index.html')).toBe(false);
    expect(isAppPage('app://evidence-desk.evil/index.html')).toBe(false);
    expect(isAppPage('https://example.com/')).toBe(false);
    expect(isAppPage(undefined)).toBe(false);
  });

  it('opens only its own documentation in the browser', () => {
    expect(isDocumentationAddress('https://github.com/evidence-desk/evidence-desk#readme')).toBe(true);
    expect(isDocumentationAddress('https://github.com/someone-else/evidence-desk')).toBe(false);
    expect(isDocumentationAddress('http://github.com/evidence-desk/evidence-desk')).toBe(false);
    expect(isDocumentationAddress('file:///etc/passwd')).toBe(false);
    expect(isDocumentationAddress('javascript:alert(1)')).toBe(false);
  });

  it('is served under a policy with no inline or eval code, and no connections', () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("style-src 'self'");
  });
});
