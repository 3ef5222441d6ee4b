import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import type { BenchFigure } from './figure';
import type { SandboxInfo } from './support/sandbox';
import { accessToken, freshCreation, serveSandbox } from './support/sandbox';
import { sized } from './size';

const HOSTILE = sized(20_000, 200);
const HOSTILE_CONNECTIONS = 256;
// How long the quiet reference runs: about as long as the hostile load takes at full size.
const QUIET_MS = sized(5_000, 1_000);
const ORDINARY_CLIENTS = 4;

/**
 * Ordinary creations per second while 20,000 hostile requests (broken HTTP, no Host, huge headers,
 * deeply nested JSON, bad tokens and escapes, half-sent bodies, random bytes) arrive on 256
 * connections at once, against the same clients on a quiet sandbox in the same run. Any ordinary
 * request that fails — a reset connection included — makes the figure invalid. Loopback only, bounded.
 */
export async function hostileLoad(): Promise<BenchFigure> {
  const sandbox = await serveSandbox();
  try {
    const token = await accessToken(sandbox.info);
    const quiet = await ordinaryDuring(
      sandbox.info,
      token,
      () => new Promise((resolve) => setTimeout(resolve, QUIET_MS)),
    );
    const attacked = await ordinaryDuring(sandbox.info, token, () => hostileRequests(sandbox.info, token));
    return {
      name: `ordinary creations during ${HOSTILE.toLocaleString('en')} hostile requests`,
      value: attacked.perSecond,
      reference: quiet.perSecond,
      unit: 'creations/s',
      referenceName: 'the same clients on a quiet sandbox',
      failures: attacked.failures + quiet.failures,
    };
  } finally {
    await sandbox.stop();
  }
}

async function ordinaryDuring(
  info: SandboxInfo,
  token: string,
  load: () => Promise<unknown>,
): Promise<{ perSecond: number; failures: number }> {
  let done = false;
  let count = 0;
  let failures = 0;
  const client = async () => {
    while (!done) {
      const { headers, body } = freshCreation();
      try {
        const response = await fetch(`${info.baseUrl}/v1/certifications`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body,
        });
        await response.text();
        if (response.status !== 201) failures++;
      } catch (error) {
        failures++;
        process.stderr.write(
          `ordinary request failed: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}\n`,
        );
      }
      count++;
    }
  };
  const started = performance.now();
  const clients = Promise.all(Array.from({ length: ORDINARY_CLIENTS }, client));
  await load();
  done = true;
  await clients;
  return { perSecond: count / ((performance.now() - started) / 1000), failures };
}

async function hostileRequests(info: SandboxInfo, token: string): Promise<void> {
  const { port, hostname } = new URL(info.baseUrl);
  const deep = '['.repeat(3000) + ']'.repeat(3000);
  const deepBody = `{"asset_hash":"${'a'.repeat(64)}","asset_type":"d","source_system":"s","event_type":"E","x":${deep}}`;
  const kinds = [
    () => 'HELLO THERE\r\n\r\n',
    () => 'GET /v1/certifications/x HTTP/1.1\r\nConnection: close\r\n\r\n',
    () => `GET /v1/certifications/x HTTP/1.1\r\nHost: s\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    () =>
      `POST /v1/certifications HTTP/1.1\r\nHost: s\r\nAuthorization: Bearer ${token}\r\nX-Request-Id: ${randomUUID()}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${deepBody.length}\r\n\r\n${deepBody}`,
    () => 'GET /v1/certifications/%zz HTTP/1.1\r\nHost: s\r\nAuthorization: Bearer bad\r\n\r\n',
    () => 'POST /v1/certifications HTTP/1.1\r\nHost: s\r\nContent-Length: 100\r\n\r\n{"half',
    () => randomBytes(200).toString('latin1'),
  ];
  let sent = 0;
  const lane = async () => {
    while (sent < HOSTILE) {
      const text = (kinds[sent++ % kinds.length] as () => string)();
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname, () => socket.end(text));
        const finish = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => socket.destroy(), 2_000);
        socket.on('data', () => undefined);
        socket.on('error', finish);
        socket.on('close', finish);
      });
    }
  };
  await Promise.all(Array.from({ length: HOSTILE_CONNECTIONS }, lane));
}
