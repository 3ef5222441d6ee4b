/**
 * The renderer's Content-Security-Policy, written once: the Electron shell sends it as a header,
 * the built `index.html` carries it in a <meta> tag (vite.config.ts), and the end-to-end harness
 * serves the page under it.
 */
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  // No inline styles or scripts at all: React sets element styles through the CSSOM, which CSP allows.
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
];

export const CONTENT_SECURITY_POLICY = DIRECTIVES.join('; ');

/** Browsers ignore (and warn about) `frame-ancestors` in a <meta> policy; the header carries it. */
export const META_CONTENT_SECURITY_POLICY = DIRECTIVES.filter((d) => !d.startsWith('frame-ancestors')).join(
  '; ',
);
