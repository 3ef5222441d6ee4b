import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { load } from 'js-yaml';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The packaging config is read as electron-builder reads it and held to its own JSON schema, then
// to the settings the security checklist and IT departments require. Producing the installers
// needs Windows and macOS runners (release workflow); what they are told to produce is checked here.
const config = load(readFileSync('electron-builder.yml', 'utf8')) as Record<string, unknown> & {
  electronFuses: Record<string, boolean>;
  mac: {
    target: { target: string; arch: string[] }[];
    hardenedRuntime: boolean;
    entitlements: string;
    notarize: boolean;
  };
  win: { target: { target: string }[] };
  nsis: { perMachine: boolean; allowElevation: boolean };
  msi: { perMachine: boolean };
  fileAssociations: { ext: string }[];
  extraResources: { from: string; to: string }[];
};

describe('electron-builder.yml', () => {
  it('is valid against electron-builder’s own schema', () => {
    const schema = JSON.parse(readFileSync('node_modules/app-builder-lib/scheme.json', 'utf8')) as object;
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    const valid = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 1)).toEqual([]);
    expect(valid).toBe(true);
    // The schema does refuse: a misspelt key is an error, not silently ignored.
    expect(validate({ ...config, electronFuse: {} })).toBe(false);
    expect(validate({ ...config, nsis: { perMachine: 'no' } })).toBe(false);
  });

  it('flips every fuse the security checklist asks for', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('builds a per-user NSIS installer and a per-machine MSI, DMG and zip for both Mac architectures, hardened and notarized', () => {
    expect(config.win.target.map((target) => target.target).sort()).toEqual(['msi', 'nsis']);
    expect(config.nsis).toMatchObject({ perMachine: false, allowElevation: false });
    expect(config.msi).toMatchObject({ perMachine: true });
    for (const kind of ['dmg', 'zip'])
      expect(config.mac.target.find((target) => target.target === kind)?.arch.sort()).toEqual([
        'arm64',
        'x64',
      ]);
    expect(config.mac).toMatchObject({ hardenedRuntime: true, notarize: true });
    // The one entitlement Electron needs under the hardened runtime, and nothing more.
    const entitlements = readFileSync(config.mac.entitlements, 'utf8');
    expect([...entitlements.matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1])).toEqual([
      'com.apple.security.cs.allow-jit',
    ]);
    expect(config.fileAssociations.map((association) => association.ext)).toEqual(['receipt.json']);
  });

  it('holds no secret: signing and notarizing credentials come from the environment', () => {
    const text = readFileSync('electron-builder.yml', 'utf8');
    for (const key of [
      'cscLink',
      'cscKeyPassword',
      'appleId',
      'appleIdPassword',
      'password',
      'token',
      'GH_TOKEN',
    ])
      expect(text.includes(`${key}:`), key).toBe(false);
  });

  it('ships the command-line launchers, and the macOS one runs the app with --cli through a link on PATH', () => {
    expect(config.extraResources).toEqual([{ from: 'build/cli/', to: 'bin/' }]);
    expect(readFileSync('build/cli/evidence-desk.cmd', 'utf8')).toMatch(
      /"%~dp0\.\.\\\.\.\\Evidence Desk\.exe" --cli %\*/,
    );
    // The app's layout, with a stand-in for its binary that says what it was given and exits 3.
    const root = mkdtempSync(join(tmpdir(), 'evidence-launcher-'));
    try {
      const app = join(root, 'Evidence Desk.app', 'Contents');
      mkdirSync(join(app, 'MacOS'), { recursive: true });
      mkdirSync(join(app, 'Resources', 'bin'), { recursive: true });
      copyFileSync('build/cli/evidence-desk', join(app, 'Resources', 'bin', 'evidence-desk'));
      chmodSync(join(app, 'Resources', 'bin', 'evidence-desk'), 0o755);
      writeFileSync(join(app, 'MacOS', 'Evidence Desk'), '#!/bin/sh\nprintf "%s|" "$@"\nexit 3\n', {
        mode: 0o755,
      });
      mkdirSync(join(root, 'usr-local-bin'));
      symlinkSync(
        join(app, 'Resources', 'bin', 'evidence-desk'),
        join(root, 'usr-local-bin', 'evidence-desk'),
      );
      const run = spawnSync(
        join(root, 'usr-local-bin', 'evidence-desk'),
        ['certify', 'a file.pdf', '--json'],
        {
          encoding: 'utf8',
        },
      );
      expect(run.stdout).toBe('--cli|certify|a file.pdf|--json|');
      expect(run.status).toBe(3);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the built renderer', () => {
  it('is the production build of React whoever runs the build (the tests run it with NODE_ENV=test)', () => {
    const assets = join('dist', 'renderer', 'assets');
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts)
      // React's development runtime: its JSX factory and the frames it keeps for component stacks.
      expect(readFileSync(join(assets, script), 'utf8')).not.toMatch(/jsxDEV|react_stack_bottom_frame/);
  });
});
