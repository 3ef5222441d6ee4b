import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The command line as an npm package, installed the way the README tells IT to: `npm pack`, then
// `npm install ./evidence-desk-*.tgz` in an empty folder (approving keytar's install script, as npm
// asks), then `npx evidence-desk`. The packages come from the npm cache or the registry.
const dir = mkdtempSync(join(tmpdir(), 'evidence-npm-package-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// keytar's install script takes its prebuilt binary when it can get one, and only compiles
// otherwise. With internet it downloads it; a server without keeps it in a folder, as the README
// says. This one is the binary `npm ci` built here (compiling it again took 20 s of the run).
const prebuilds = join(dir, 'prebuilds');
mkdirSync(prebuilds);
const keytar = JSON.parse(readFileSync('node_modules/keytar/package.json', 'utf8')) as { version: string };
execFileSync(
  'tar',
  [
    'czf',
    join(prebuilds, `keytar-v${keytar.version}-napi-v3-${process.platform}-${process.arch}.tar.gz`),
    'build/Release/keytar.node',
  ],
  { cwd: 'node_modules/keytar' },
);

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_keytar_local_prebuilds: prebuilds },
  });

describe('the npm package', () => {
  it('installs into an empty folder and certifies with npx evidence-desk, against the sandbox', () => {
    // The test run's global setup built dist/ already; rebuilding here would rewrite the bundle
    // other test files are running.
    npm(['pack', '--ignore-scripts', '--pack-destination', dir], process.cwd());
    const [tarball] = readdirSync(dir).filter((name) => name.endsWith('.tgz'));
    expect(tarball).toMatch(/^evidence-desk-.*\.tgz$/);

    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'it-automation', private: true, allowScripts: { keytar: true } }),
    );
    npm(['install', join('..', tarball as string)], project);
    // The kit's drawing thread ships with the command line (without it, certificates are drawn on
    // the main thread: slower, and nothing here would say so).
    expect(
      existsSync(join(project, 'node_modules', 'evidence-desk', 'dist', 'main', 'certificate-worker.js')),
    ).toBe(true);

    writeFileSync(join(project, 'contract.pdf'), 'the signed contract');
    // Enough documents that their kit draws its certificates in worker threads, as shipped.
    mkdirSync(join(project, 'production'));
    for (let i = 1; i <= 40; i++)
      writeFileSync(join(project, 'production', `exhibit ${i}.txt`), `exhibit ${i}`);
    const run = spawnSync(
      'npx',
      [
        'evidence-desk',
        'certify',
        'contract.pdf',
        'production',
        '--event-type',
        'DOCUMENT_SIGNED',
        '--asset-type',
        'contract',
        '--wait',
        '--data-dir',
        join(project, 'data'),
      ],
      { cwd: project, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
    );
    expect(run.stderr).not.toMatch(/Error|error:/);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/contract\.pdf {2}anchored, evidence verified/);

    const kit = spawnSync(
      'npx',
      ['evidence-desk', 'export', '--out', join(project, 'kit'), '--data-dir', join(project, 'data')],
      { cwd: project, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
    );
    expect(kit.stderr).not.toMatch(/Error|error:/);
    expect(kit.status).toBe(0);
    const certificates = readdirSync(join(project, 'kit', 'certifications')).filter((name) =>
      name.endsWith('.certificate.pdf'),
    );
    expect(certificates).toHaveLength(41);
  }, 180_000);
});
