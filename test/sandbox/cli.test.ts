import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:https';
import { rootCertificates } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchToken } from '../support/sandbox';

/** An HTTPS GET trusting only Node's CAs, plus `ca` when given (process-wide TLS settings untouched). */
function statusOf(url: string, ca?: string): Promise<number> {
  return new Promise((resolve, reject) =>
    get(url, ca ? { ca: [...rootCertificates, ca] } : {}, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).once('error', reject),
  );
}

const TSX = join(process.cwd(), 'node_modules/.bin/tsx');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-sandbox-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run sandbox', () => {
  it('starts, prints its addresses and demo credentials, and serves tokens with them', async () => {
    // The sandbox itself, not tsx's wrapper: the wrapper relays a SIGTERM to it over IPC, and under a
    // full run's load it once ended with 143 while relaying. Ctrl+C reaches both in a terminal.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--db', join(dir, 'db.sqlite')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await expect.poll(() => out, { timeout: 15_000 }).toMatch(/Press Ctrl\+C/);
      const field = (name: string) => new RegExp(`${name}\\s+(\\S+)`).exec(out)?.[1] ?? '';
      expect(field('base URL')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(field('token URL')).toBe(`${field('base URL')}/oauth/token`);
      const token = await fetchToken(field('token URL'), {
        clientId: field('client_id'),
        clientSecret: field('client_secret'),
      });
      expect(token).toMatch(/^at_/);
    } finally {
      child.kill('SIGTERM');
    }
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  });

  it('serves HTTPS with --tls and prints the CA file that makes it trusted', async () => {
    const child = spawn(TSX, ['sandbox/cli.ts', '--tls', '--port', '0', '--db', join(dir, 'db.sqlite')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await expect.poll(() => out, { timeout: 15_000 }).toMatch(/Press Ctrl\+C/);
      const baseUrl = /base URL\s+(\S+)/.exec(out)?.[1] ?? '';
      const caFile = /CA file\s+(\S+)/.exec(out)?.[1] ?? '';
      expect(baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(caFile).toBe(join(dir, 'tls', 'ca.pem'));
      const key = `${baseUrl}/v1/log/public-key`;
      expect(await statusOf(key, readFileSync(caFile, 'utf8'))).toBe(200);
      await expect(statusOf(key)).rejects.toThrow(/unable to verify the first certificate/);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('creates clients with the options asked for, showing their secrets once', () => {
    const db = join(dir, 'db.sqlite');
    const created = spawnSync(
      TSX,
      ['sandbox/cli.ts', 'clients', 'create', '--name', 'acme', '--require-signature', '--db', db],
      { encoding: 'utf8' },
    );
    expect(created.status).toBe(0);
    const credentials = JSON.parse(created.stdout.slice(0, created.stdout.lastIndexOf('}') + 1)) as Record<
      string,
      unknown
    >;
    expect(credentials).toMatchObject({ name: 'acme', requireSignature: true, requireApiKey: false });
    expect(credentials.clientSecret).toMatch(/^cs_/);
    const listed = spawnSync(TSX, ['sandbox/cli.ts', 'clients', 'list', '--db', db], { encoding: 'utf8' });
    expect(listed.stdout).toContain(`${String(credentials.clientId)}\tacme\tsignature required`);
    expect(listed.stdout).not.toContain(String(credentials.clientSecret));
  });

  it('explains bad arguments and exits 2', () => {
    const bad = spawnSync(TSX, ['sandbox/cli.ts', '--port', 'eighty'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--port takes a whole number, not "eighty"');
    const faults = spawnSync(TSX, ['sandbox/cli.ts', '--faults', '{"errorRate":3}'], { encoding: 'utf8' });
    expect(faults.status).toBe(2);
    expect(faults.stderr).toMatch(/errorRate/);
  });
});
