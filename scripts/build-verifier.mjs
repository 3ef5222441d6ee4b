// Builds verify.html: one self-contained file (script and style inline) that the evidence kit
// hands to the other side. Its policy allows exactly that script and that style and no request.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

// `npm run cli` builds it only once; `npm run build` and the tests build it afresh.
if (process.argv.includes('--if-missing') && existsSync('dist/verify.html')) process.exit(0);

const page = 'verifier/page';
const { outputFiles } = await build({
  entryPoints: [`${page}/main.ts`],
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: ['chrome120', 'firefox120', 'safari17'],
  minify: true,
  legalComments: 'eof',
  logLevel: 'warning',
});
// "</script" inside the bundle would end the inline script early.
const script = outputFiles[0].text.replaceAll('</script', '<\\/script');
const style = readFileSync(`${page}/style.css`, 'utf8');
const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const csp = [
  "default-src 'none'",
  `script-src ${hash(script)}`,
  `style-src ${hash(style)}`,
  "img-src 'none'",
  // The page's own script, started again as a worker from a blob: it checks off the page's thread.
  'worker-src blob:',
  "connect-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');
// Functions as replacements: a "$" in the bundle must stay a "$".
// The inline text must be exactly what was hashed: whatever white space a formatter put around a
// placeholder goes.
const html = readFileSync(`${page}/verify.html`, 'utf8')
  .replace('%CSP%', () => csp)
  .replace(/<style>\s*%STYLE%\s*<\/style>/, () => `<style>${style}</style>`)
  .replace(/<script>\s*%SCRIPT%\s*<\/script>/, () => `<script>${script}</script>`)
  .replace(/(id="kit-trusted-keys">)\s*%TRUSTED_KEYS%\s*</, '$1%TRUSTED_KEYS%<');
for (const placeholder of ['%STYLE%', '%SCRIPT%', '%CSP%'])
  if (html.includes(placeholder)) throw new Error(`verify.html: ${placeholder} was not filled in`);
mkdirSync('dist', { recursive: true });
// Written whole, then renamed: a test reading it meanwhile never sees half a page.
writeFileSync('dist/verify.html.tmp', html);
renameSync('dist/verify.html.tmp', 'dist/verify.html');
process.stdout.write('built dist/verify.html\n');
