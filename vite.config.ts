import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { META_CONTENT_SECURITY_POLICY } from './protocol/content-security-policy.ts';

// The renderer only: it is loaded from disk by Electron, so assets use relative paths.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [
    react(),
    // The page's <meta> policy comes from the one CSP module the shell and the tests use too.
    {
      name: 'evidence-desk-csp',
      transformIndexHtml: (html) => html.replace('%EVIDENCE_DESK_CSP%', META_CONTENT_SECURITY_POLICY),
    },
  ],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome140',
  },
});
