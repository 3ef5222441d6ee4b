import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { makeLocalCertificates } from '../../sandbox/tls';
import type { LocalCertificates } from '../../sandbox/tls';
import { profileSetArgs, runCliWith } from '../support/cli';
import { startTestSandbox } from '../support/sandbox';

// The command line on a corporate network, for real: Debian's tinyproxy in front of the sandbox
// serving HTTPS with a private CA made by openssl (as an internal service, or a TLS-inspecting
// proxy, would present). Certify goes through the proxy's CONNECT and reaches anchored; without
// the CA it fails saying whose certificate is not trusted; a proxy that wants a password and a
// captive portal are each said in words.
const TINYPROXY = '/usr/bin/tinyproxy';

let dir: string;
let certificates: LocalCertificates;
let sandbox: Sandbox;
const proxies: ChildProcess[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A tinyproxy on loopback that may CONNECT to `targetPort` only; its log shows each CONNECT. */
async function startProxy(
  name: string,
  targetPort: number,
  basicAuth?: string,
): Promise<{ url: string; log: string }> {
  const port = await freePort();
  const log = join(dir, `${name}.log`);
  const config = join(dir, `${name}.conf`);
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 30',
      `LogFile "${log}"`,
      'LogLevel Connect',
      `PidFile "${join(dir, `${name}.pid`)}"`,
      'MaxClients 20',
      'Allow 127.0.0.1',
      `ConnectPort ${targetPort}`,
      'DisableViaHeader Yes',
      ...(basicAuth ? [`BasicAuth ${basicAuth}`] : []),
    ].join('\n'),
  );
  proxies.push(spawn(TINYPROXY, ['-d', '-c', config], { stdio: 'ignore' }));
  for (let tries = 0; ; tries++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    if (tries > 50) throw new Error(`tinyproxy did not start (${config})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}`, log };
}

beforeAll(async () => {
  if (!existsSync(TINYPROXY))
    throw new Error('These tests need tinyproxy: apt-get install tinyproxy (.ci/run does)');
  dir = mkdtempSync(join(tmpdir(), 'evidence-network-'));
  certificates = makeLocalCertificates(join(dir, 'tls'));
  sandbox = await startTestSandbox({
    batchIntervalMs: 200,
    tls: {
      cert: readFileSync(certificates.certFile, 'utf8'),
      key: readFileSync(certificates.keyFile, 'utf8'),
    },
  });
}, 30_000);

afterAll(async () => {
  for (const proxy of proxies) proxy.kill();
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A data folder with a profile for the HTTPS sandbox, its secret piped in as a user would. */
async function profileFolder(extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const dataDir = mkdtempSync(join(dir, 'data-'));
  const client = sandbox.createClient();
  const set = await runCliWith(
    dataDir,
    profileSetArgs('internal', sandbox, client.clientId, '--use', ...extra),
    `${client.clientSecret}\n\n`,
    env,
  );
  expect(set.code, set.stderr).toBe(0);
  return dataDir;
}

describe('the command line on a corporate network', () => {
  it('certifies through an HTTPS proxy to a service behind a private CA, and the proxy saw the CONNECT', async () => {
    expect(sandbox.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const port = new URL(sandbox.baseUrl).port;
    const proxy = await startProxy('open', Number(port));
    const env = { HTTPS_PROXY: proxy.url, NO_PROXY: '', NODE_EXTRA_CA_CERTS: certificates.caFile };
    const dataDir = await profileFolder([], env);
    const [file] = [join(dataDir, 'memo.pdf')];
    writeFileSync(file!, 'a memo');
    const certified = await runCliWith(
      dataDir,
      ['certify', file!, '--event-type', 'DOCUMENT_SIGNED', '--asset-type', 'document', '--wait', '--json'],
      undefined,
      env,
    );
    expect(certified.code, certified.stderr).toBe(0);
    expect(JSON.parse(certified.stdout)).toMatchObject({
      certifications: [{ state: 'anchored', verification: 'verified' }],
    });
    expect(readFileSync(proxy.log, 'utf8')).toMatch(new RegExp(`CONNECT 127\\.0\\.0\\.1:${port}`));

    // The profile's own CA file does as well as NODE_EXTRA_CA_CERTS.
    const withCaFile = await profileFolder(['--ca-file', certificates.caFile], {
      HTTPS_PROXY: proxy.url,
      NO_PROXY: '',
    });
    const tested = await runCliWith(withCaFile, ['profile', 'test'], undefined, {
      HTTPS_PROXY: proxy.url,
      NO_PROXY: '',
    });
    expect(tested.code, tested.stderr + tested.stdout).toBe(0);
  }, 60_000);

  it('without the CA, says whose certificate is not trusted and what to do', async () => {
    const dataDir = await profileFolder();
    const tested = await runCliWith(dataDir, ['profile', 'test']);
    expect(tested.code).toBe(3);
    expect(tested.stderr + tested.stdout).toMatch(
      /the certificate presented for 127\.0\.0\.1:\d+, issued by "Evidence Desk sandbox CA", is not trusted on this computer\. If your organisation inspects TLS traffic, ask IT for its CA certificate/,
    );
  }, 30_000);

  it('says when the proxy wants a password', async () => {
    const proxy = await startProxy('guarded', Number(new URL(sandbox.baseUrl).port), 'clerk secret');
    const env = { HTTPS_PROXY: proxy.url, NO_PROXY: '', NODE_EXTRA_CA_CERTS: certificates.caFile };
    const dataDir = await profileFolder([], env);
    const tested = await runCliWith(dataDir, ['profile', 'test'], undefined, env);
    expect(tested.code).toBe(3);
    expect(tested.stderr + tested.stdout).toMatch(/the proxy asks for a user name and password/);
  }, 30_000);

  it('says when a captive portal answers instead of the service', async () => {
    const portal = createServer((_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Hotel Wi-Fi</title>'),
    );
    await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
    try {
      const address = `http://127.0.0.1:${(portal.address() as AddressInfo).port}`;
      const dataDir = mkdtempSync(join(dir, 'data-'));
      await runCliWith(
        dataDir,
        profileSetArgs('hotel', { baseUrl: address, tokenUrl: `${address}/token` }, 'x', '--use'),
        'secret\n\n',
      );
      const tested = await runCliWith(dataDir, ['profile', 'test']);
      expect(tested.code).toBe(3);
      expect(tested.stderr + tested.stdout).toMatch(
        /answered with a web page instead of the service’s data: a Wi-Fi or proxy sign-in page.* sign in to the network/,
      );
    } finally {
      portal.close();
    }
  }, 30_000);
});
