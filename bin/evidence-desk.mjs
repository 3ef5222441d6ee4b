#!/usr/bin/env node
// The command line: the bundled build (dist/main/cli.js) as the package and the installers ship it;
// in a source checkout that was not built, the TypeScript itself through tsx, for development.
import { existsSync } from 'node:fs';

const bundled = new URL('../dist/main/cli.js', import.meta.url);
if (existsSync(bundled)) await import(bundled.href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../main/cli-entry.ts');
}
