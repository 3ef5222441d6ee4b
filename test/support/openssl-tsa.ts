import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { NEW_KEY, caSection, freePort, openssl, tsaSection } from './openssl-ca';

/**
 * A timestamping authority that is not ours: OpenSSL's `ts -reply` behind a small loopback HTTP
 * handler (application/timestamp-query in, application/timestamp-reply out), with CAs and signer
 * certificates that OpenSSL makes. Each way a real TSA can answer badly is one `behaviour`.
 */
export type TsaBehaviour =
  | 'good'
  | 'html'
  | 'garbage'
  | 'rejection'
  | 'other-imprint'
  | 'other-nonce'
  | 'no-usage'
  | 'unbound-signer'
  | 'expired-signer'
  | 'untrusted-root'
  | 'silent'
  | 'slow'
  /** A good signer whose certificate is valid for an hour either side of now (evidence records renew before it ends). */
  | 'short-lived';

export interface OpensslTsa {
  url: string;
  /** The root that signs the good signer, PEM: what a profile trusts. */
  rootPem: string;
  rootDer: Buffer;
  /** Files for `openssl ts -verify`: the root, and the signer's chain without it. */
  rootFile: string;
  signerFile: string;
  behaviour: TsaBehaviour;
  requests: number;
  /** As a rationing public authority: a request sooner than this after the last is refused (429). */
  rationMs: number;
  /** Requests refused for coming too soon. */
  refusedForPace: number;
  /** The next request is answered 429 with Retry-After: this many seconds (then cleared). */
  busyOnce: number | null;
  /** When each request came (ms since the epoch). */
  requestedAt: number[];
  /** The signers' CRL is away (503): validation data cannot be collected. */
  statusDown: boolean;
  /** The hash the authority signs with (its SignerInfo's digest): SHA-512 once SHA-256 is retired. */
  signerDigest: 'sha256' | 'sha512';
  close(): Promise<void>;
}

/** How long a 'slow' authority takes to answer well. */
export const SLOW_MS = 3_000;

function makeCa(dir: string, name: string): void {
  openssl(
    ['req', '-x509', ...NEW_KEY, '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '3650'].concat([
      '-subj',
      `/O=Test TSA/CN=${name}`,
    ]),
    dir,
  );
}

/** A signer certificate issued by `ca` with the given extensions file section, via `openssl ca` (dates settable). */
function makeSigner(
  dir: string,
  ca: string,
  name: string,
  extensions: string,
  dates?: [string, string],
): void {
  openssl(
    ['req', ...NEW_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/O=Test TSA/CN=${name}`],
    dir,
  );
  openssl(
    [
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-name',
      ca,
      '-in',
      `${name}.csr`,
      '-out',
      `${name}.pem`,
      '-extensions',
      extensions,
      '-notext',
    ].concat(dates ? ['-startdate', dates[0], '-enddate', dates[1]] : ['-days', '1825']),
    dir,
  );
}

const CONFIG = (dir: string, crlUrl: string) => `${caSection(dir, 'root')}${caSection(dir, 'stranger')}
[ any ]
organizationName = optional
commonName = supplied

[ tsa_usage ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
crlDistributionPoints = URI:${crlUrl}

[ no_usage ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth

[ tsa ]
default_tsa = tsa_good

${tsaSection(dir)}`;

export async function startOpensslTsa(dir: string, behaviour: TsaBehaviour = 'good'): Promise<OpensslTsa> {
  mkdirSync(join(dir, 'issued'), { recursive: true });
  for (const file of ['index-root.txt', 'index-stranger.txt']) writeFileSync(join(dir, file), '');
  writeFileSync(join(dir, 'serial-root'), '1000\n');
  writeFileSync(join(dir, 'serial-stranger'), '2000\n');
  writeFileSync(join(dir, 'tsaserial'), '01\n');
  // The signers name their root's CRL, served beside the authority: the validation data a real one publishes.
  const port = await freePort();
  writeFileSync(join(dir, 'ca.cnf'), CONFIG(dir, `http://127.0.0.1:${port}/root.crl`));
  makeCa(dir, 'root');
  makeCa(dir, 'stranger');
  makeSigner(dir, 'ca_root', 'tsa-signer', 'tsa_usage');
  makeSigner(dir, 'ca_root', 'plain-signer', 'no_usage');
  makeSigner(dir, 'ca_root', 'expired-signer', 'tsa_usage', ['20200101000000Z', '20210101000000Z']);
  makeSigner(dir, 'ca_stranger', 'stranger-signer', 'tsa_usage');
  const hourAway = (sign: number) =>
    `${new Date(Date.now() + sign * 3_600_000).toISOString().replace(/[-:T]|\.\d+/g, '')}`;
  makeSigner(dir, 'ca_root', 'short-signer', 'tsa_usage', [hourAway(-1), hourAway(1)]);
  openssl(['ca', '-gencrl', '-config', 'ca.cnf', '-name', 'ca_root', '-out', 'root.crl.pem'], dir);
  const crl = openssl(['crl', '-in', 'root.crl.pem', '-outform', 'DER'], dir);

  const signerOf: Partial<Record<TsaBehaviour, [string, string]>> = {
    'expired-signer': ['expired-signer', 'root'],
    'untrusted-root': ['stranger-signer', 'stranger'],
    'short-lived': ['short-signer', 'root'],
  };
  const reply = (query: Buffer, current: TsaBehaviour): Buffer => {
    const [signer, root] = signerOf[current] ?? ['tsa-signer', 'root'];
    writeFileSync(join(dir, 'query.tsq'), query);
    let asked = 'query.tsq';
    if (current === 'other-imprint' || current === 'other-nonce') {
      // A reply to somebody else's request: other data, or the same data under another nonce.
      writeFileSync(join(dir, 'other.bin'), current === 'other-imprint' ? 'other data' : 'x');
      const text = openssl(['ts', '-query', '-in', 'query.tsq', '-text'], dir).toString();
      const args =
        current === 'other-imprint'
          ? ['ts', '-query', '-data', 'other.bin', '-sha256', '-cert', '-out', 'other.tsq']
          : ['ts', '-query', '-digest', digestOf(text), '-sha256', '-cert', '-out', 'other.tsq'];
      openssl(args, dir);
      asked = 'other.tsq';
    }
    openssl(
      [
        'ts',
        '-reply',
        '-config',
        'ca.cnf',
        '-section',
        'tsa_good',
        '-queryfile',
        asked,
        '-signer',
        `${signer}.pem`,
      ].concat([
        '-inkey',
        `${signer}.key`,
        '-chain',
        `${root}.pem`,
        `-${tsa.signerDigest}`,
        '-out',
        'reply.tsr',
      ]),
      dir,
    );
    if (current !== 'no-usage' && current !== 'unbound-signer') return readFileSync(join(dir, 'reply.tsr'));
    // OpenSSL's TSA refuses to sign with a certificate not meant for timestamping, so such a token is
    // made as a TSA without scruples would: the same TSTInfo, signed as plain CMS, which names no
    // ESSCertID (so 'unbound-signer' is a good TSA certificate that the token does not bind).
    const cmsSigner = current === 'no-usage' ? 'plain-signer' : 'tsa-signer';
    openssl(['ts', '-reply', '-in', 'reply.tsr', '-token_out', '-out', 'token.der'], dir);
    openssl(
      ['cms', '-verify', '-noverify', '-inform', 'DER', '-in', 'token.der', '-out', 'tstinfo.der'],
      dir,
    );
    const token = openssl(
      [
        'cms',
        '-sign',
        '-nodetach',
        '-binary',
        '-econtent_type',
        '1.2.840.113549.1.9.16.1.4',
        '-in',
        'tstinfo.der',
      ].concat([
        '-signer',
        `${cmsSigner}.pem`,
        '-inkey',
        `${cmsSigner}.key`,
        '-md',
        'sha256',
        '-nosmimecap',
        '-outform',
        'DER',
      ]),
      dir,
    );
    return der(0x30, Buffer.concat([der(0x30, Buffer.from([0x02, 0x01, 0x00])), token]));
  };

  const tsa: OpensslTsa = {
    url: '',
    rootPem: readFileSync(join(dir, 'root.pem'), 'utf8'),
    rootDer: openssl(['x509', '-in', 'root.pem', '-outform', 'DER'], dir),
    rootFile: join(dir, 'root.pem'),
    signerFile: join(dir, 'tsa-signer.pem'),
    behaviour,
    requests: 0,
    rationMs: 0,
    refusedForPace: 0,
    busyOnce: null,
    requestedAt: [],
    statusDown: false,
    signerDigest: 'sha256',
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/root.crl') {
        if (tsa.statusDown) response.writeHead(503).end();
        else response.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(crl);
        return;
      }
      tsa.requests++;
      const now = Date.now();
      const last = tsa.requestedAt.at(-1);
      tsa.requestedAt.push(now);
      if (tsa.busyOnce !== null) {
        response.writeHead(429, { 'retry-after': String(tsa.busyOnce) }).end();
        tsa.busyOnce = null;
        return;
      }
      if (tsa.rationMs > 0 && last !== undefined && now - last < tsa.rationMs) {
        tsa.refusedForPace++;
        response.writeHead(429, { 'retry-after': String(Math.ceil(tsa.rationMs / 1000)) }).end();
        return;
      }
      const current = tsa.behaviour;
      if (current === 'silent') return; // Never answers: the caller's timeout must end the wait.
      if (request.headers['content-type'] !== 'application/timestamp-query') {
        response.writeHead(415).end();
        return;
      }
      if (current === 'html') {
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body>Sign in to continue</body></html>');
        return;
      }
      const body =
        current === 'garbage'
          ? Buffer.from('3082ffff0102030405', 'hex')
          : current === 'rejection'
            ? rejection()
            : reply(Buffer.concat(chunks), current);
      // A good token, but only after SLOW_MS: longer than anchoring takes on the sandbox.
      const answer = () =>
        response.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body);
      if (current === 'slow') setTimeout(answer, SLOW_MS);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  tsa.url = `http://127.0.0.1:${port}/tsa`;
  return tsa;
}

/** The SHA-256 imprint of a query, read back from `openssl ts -query -text`. */
function digestOf(text: string): string {
  const block = /Message data:\n([\s\S]*?)\n(?:Policy|Nonce)/.exec(text)?.[1] ?? '';
  return [...block.matchAll(/ - ((?:[0-9a-f]{2}[ -]?)+)/g)]
    .map((m) => m[1]!.replace(/[ -]/g, ''))
    .join('')
    .slice(0, 64);
}

/** One DER element: tag, definite length, content. */
function der(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length =
    n < 0x80
      ? [n]
      : n < 0x100
        ? [0x81, n]
        : n < 0x10000
          ? [0x82, n >> 8, n & 0xff]
          : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), content]);
}

/** TimeStampResp { status PKIStatusInfo { status rejection(2), statusString "bad request" } }. */
function rejection(): Buffer {
  const said = der(0x30, der(0x0c, Buffer.from('bad request', 'utf8')));
  return der(0x30, der(0x30, Buffer.concat([Buffer.from([0x02, 0x01, 0x02]), said])));
}
