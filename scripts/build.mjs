// Builds the app: the renderer with Vite, the Electron main process, hashing worker and preload with esbuild.
// Runtime dependencies stay in node_modules (native modules cannot be bundled; electron-builder ships them).
import { build } from 'esbuild';
import { cpSync, readFileSync } from 'node:fs';
import { build as viteBuild } from 'vite';

// What ships, whoever builds it: Vite keeps a NODE_ENV it finds, and Vitest's global setup sets
// "test", which built React's development runtime into the renderer (a third larger, and slower).
process.env.NODE_ENV = 'production';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const external = ['electron', ...Object.keys(pkg.dependencies ?? {})];
const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  logLevel: 'warning',
  external,
};

await viteBuild({ configFile: 'vite.config.ts', logLevel: 'warn' });
await import('./build-verifier.mjs');
await build({
  ...common,
  entryPoints: { main: 'main/electron/main.ts' },
  outdir: 'dist/main',
  format: 'esm',
  outExtension: { '.js': '.js' },
});
// A sandboxed preload is a classic script: CommonJS, with only `electron` left to require.
await build({
  ...common,
  external: ['electron'],
  entryPoints: ['preload/preload.ts'],
  outfile: 'dist/preload/preload.cjs',
  format: 'cjs',
});
// The command line and the hashing worker both shells use.
await import('./build-cli.mjs');
// Images the shell loads at run time (the tray icon), beside the bundles that name them.
cpSync('resources', 'dist/resources', { recursive: true });
process.stdout.write(
  'built dist/renderer, dist/main (the app and the command line), dist/preload, dist/verify.html\n',
);
