// Builds the command line as the package and the installers run it: one ES module bundle in
// dist/main/ beside the hashing worker, every pure-JavaScript dependency inside it, and what only
// some commands need (the sandbox, PDFs, proxies) in chunks loaded when a command asks for them.
// Native modules (better-sqlite3, keytar, @parcel/watcher), undici, pdfkit and the fonts stay in
// node_modules.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

export const NATIVE = ['better-sqlite3', 'keytar', '@parcel/watcher', 'electron'];
// Left as packages too: undici (its proxy agent's classes do not survive esbuild's CommonJS
// interop; loaded only when a proxy is configured) and pdfkit (it reads its own font data through
// package imports). Both are loaded only by the commands that need them.
const UNBUNDLED = [...NATIVE, 'undici', 'pdfkit'];
// `--outdir DIR` builds elsewhere (the benchmarks build their own, never the one tests run).
const at = process.argv.indexOf('--outdir');
const outdir = at > 0 ? process.argv[at + 1] : 'dist/main';
// `--bench` adds the benchmarks' child processes (bench/support/bench-scripts.ts): started from a
// bundle, as the command line ships, each loads in a fifth of a second, where tsx took a second
// of processor to compile and load them.
const BENCH_CHILDREN = {
  'million-step': 'bench/support/million-step.ts',
  'export-child': 'bench/support/export-child.ts',
  'verify-set-child': 'bench/support/verify-set-child.ts',
  'serve-sandbox': 'bench/support/serve-sandbox.ts',
  'serve-empty': 'bench/support/serve-empty.ts',
};

// Chunks are named by their content: last build's would otherwise linger and be packed.
rmSync(`${outdir}/chunks`, { recursive: true, force: true });
await build({
  entryPoints: {
    cli: 'main/cli-entry.ts',
    'hash-worker': 'main/hashing/hash-worker.ts',
    'certificate-worker': 'main/evidence/pdf/certificate-worker.ts',
    ...(process.argv.includes('--bench') ? BENCH_CHILDREN : {}),
  },
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  target: 'node22',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  external: UNBUNDLED,
  // Bundled CommonJS (fastify, pdfkit…) calls require() for Node built-ins: give ESM one.
  banner: {
    js: "import { createRequire as __edRequire } from 'node:module'; const require = __edRequire(import.meta.url);",
  },
});
