import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { createPrivateKey, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { bytesToBase64 } from '../../verifier/bytes';
import { NEW_KEY, caSection, freePort, openssl, tsaSection } from './openssl-ca';
import { certificateFingerprint, checkTimestampToken } from '../../verifier/timestamp/token';

/**
 * Authorities whose status is published by parts that are not ours: an OpenSSL CA (`openssl ca`)
 * whose TSA signers name, in their certificates, an OCSP responder (`openssl ocsp -index … -port`)
 * and a CRL (`openssl ca -gencrl`, served over loopback HTTP). Tokens come from `openssl ts -reply`.
 * Each signer stands for one case of the issue's list; `revoke` changes its status as a CA would.
 */
export type StatusSigner =
  /** Names the OCSP responder and the CRL. */
  | 'published'
  /** Names an OCSP responder that is not there, and nothing else. */
  | 'dead-responder'
  /** Names a responder that answers about another certificate. */
  | 'wrong-responder'
  /** Names only a CRL, made by an impostor CA with the root's name and another key. */
  | 'impostor-crl'
  /** Revoked by the CA before its token, after it (superseded), after it for key compromise. */
  | 'revoked-before'
  | 'revoked-after'
  | 'compromised-after';

export interface IssuedToken {
  /** Signer then root, DER base64, as a kept batch holds them. */
  chain: string[];
  genTime: Date;
}

export interface StatusAuthorities {
  dir: string;
  rootFile: string;
  signerFile(signer: StatusSigner): string;
  token(signer: StatusSigner): Promise<IssuedToken>;
  /** Revokes a signer now (superseded, or keyCompromise), and lets the responder and the CRL say so. */
  revoke(signer: StatusSigner, reason: 'superseded' | 'keyCompromise'): Promise<void>;
  /** An OCSP response that was valid only before `before`, properly signed by the root. */
  expiredResponse(signer: StatusSigner, before: Date): Promise<Uint8Array>;
  stopResponder(): void;
  startResponder(): Promise<void>;
  close(): Promise<void>;
}

const SIGNERS: StatusSigner[] = [
  'published',
  'dead-responder',
  'wrong-responder',
  'impostor-crl',
  'revoked-before',
  'revoked-after',
  'compromised-after',
];

const EXTENSIONS: Record<StatusSigner, string> = {
  published: 'ocsp_and_crl',
  'dead-responder': 'dead_ocsp',
  'wrong-responder': 'wrong_ocsp',
  'impostor-crl': 'impostor_crl',
  'revoked-before': 'ocsp_and_crl',
  'revoked-after': 'ocsp_and_crl',
  'compromised-after': 'ocsp_and_crl',
};

const tsaExtensions = (name: string, lines: string) => `
[ ${name} ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
${lines}
`;

/** Resolves once `openssl ocsp` says it accepts connections (a probe connection would hold it: it serves one at a time). */
function accepting(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let said = '';
    const timer = setTimeout(() => reject(new Error(`openssl ocsp did not start: ${said}`)), 10_000);
    const hear = (chunk: Buffer) => {
      said += chunk.toString();
      if (/waiting for OCSP client connections/.test(said)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', hear);
    child.stderr?.on('data', hear);
  });
}

export async function startStatusAuthorities(dir: string): Promise<StatusAuthorities> {
  const [ocspPort, filesPort, deadPort] = [await freePort(), await freePort(), await freePort()];
  const files = `http://127.0.0.1:${filesPort}`;
  mkdirSync(join(dir, 'issued'), { recursive: true });
  for (const ca of ['root', 'impostor']) {
    writeFileSync(join(dir, `index-${ca}.txt`), '');
    writeFileSync(join(dir, `serial-${ca}`), ca === 'root' ? '1000\n' : '2000\n');
  }
  writeFileSync(join(dir, 'tsaserial'), '01\n');
  writeFileSync(
    join(dir, 'ca.cnf'),
    `${caSection(dir, 'root')}${caSection(dir, 'impostor')}
[ any ]
organizationName = optional
commonName = supplied
${tsaExtensions('ocsp_and_crl', `authorityInfoAccess = OCSP;URI:http://127.0.0.1:${ocspPort}/\ncrlDistributionPoints = URI:${files}/root.crl`)}
${tsaExtensions('dead_ocsp', `authorityInfoAccess = OCSP;URI:http://127.0.0.1:${deadPort}/`)}
${tsaExtensions('wrong_ocsp', `authorityInfoAccess = OCSP;URI:${files}/wrong-ocsp`)}
${tsaExtensions('impostor_crl', `crlDistributionPoints = URI:${files}/impostor.crl`)}
${tsaSection(dir)}`,
  );
  // The impostor has the root's very name, and a key of its own.
  for (const ca of ['root', 'impostor'])
    openssl(
      ['req', '-x509', ...NEW_KEY, '-keyout', `${ca}.key`, '-out', `${ca}.pem`, '-days', '3650'].concat([
        '-subj',
        '/O=Test TSA/CN=Status Root',
      ]),
      dir,
    );
  for (const signer of SIGNERS) {
    openssl(
      ['req', ...NEW_KEY, '-keyout', `${signer}.key`, '-out', `${signer}.csr`].concat([
        '-subj',
        `/O=Test TSA/CN=${signer}`,
      ]),
      dir,
    );
    openssl(
      ['ca', '-batch', '-config', 'ca.cnf', '-name', 'ca_root', '-in', `${signer}.csr`, '-out'].concat([
        `${signer}.pem`,
        '-extensions',
        EXTENSIONS[signer],
        '-days',
        '1825',
        '-notext',
      ]),
      dir,
    );
  }
  const crl = (ca: string) => {
    openssl(['ca', '-gencrl', '-config', 'ca.cnf', '-name', `ca_${ca}`, '-out', `${ca}.crl.pem`], dir);
    openssl(['crl', '-in', `${ca}.crl.pem`, '-outform', 'DER', '-out', `${ca}.crl`], dir);
  };
  crl('root');
  crl('impostor');

  let responder: ChildProcess | null = null;
  const startResponder = async () => {
    responder = spawn(
      'openssl',
      ['ocsp', '-index', 'index-root.txt', '-port', String(ocspPort), '-rsigner', 'root.pem'].concat([
        '-rkey',
        'root.key',
        '-CA',
        'root.pem',
        '-nmin',
        '10',
        '-ignore_err',
      ]),
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await accepting(responder);
  };
  const stopResponder = () => {
    responder?.kill();
    responder = null;
  };
  await startResponder();

  // A response about another certificate: the responder's honest answer for the root itself.
  openssl(['ocsp', '-issuer', 'root.pem', '-cert', 'published.pem', '-reqout', 'other.req'], dir);
  const files_ = createServer((request, response) => {
    const served: Record<string, [string, string]> = {
      '/root.crl': ['root.crl', 'application/pkix-crl'],
      '/impostor.crl': ['impostor.crl', 'application/pkix-crl'],
      '/wrong-ocsp': ['other.resp', 'application/ocsp-response'],
    };
    const file = served[request.url ?? ''];
    request.resume();
    if (!file) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': file[1] }).end(readFileSync(join(dir, file[0])));
  });
  await new Promise<void>((resolve) => files_.listen(filesPort, '127.0.0.1', resolve));
  execFileSync(
    'openssl',
    ['ocsp', '-reqin', 'other.req', '-url', `http://127.0.0.1:${ocspPort}/`].concat([
      '-respout',
      'other.resp',
      '-noverify',
    ]),
    { cwd: dir, stdio: 'ignore' },
  );
  // 'other.req' asked about 'published'; the wrong responder serves that answer to everyone.

  const rootDer = openssl(['x509', '-in', 'root.pem', '-outform', 'DER'], dir);
  return {
    dir,
    rootFile: join(dir, 'root.pem'),
    signerFile: (signer) => join(dir, `${signer}.pem`),
    async token(signer) {
      const data = randomBytes(32);
      writeFileSync(join(dir, 'data.bin'), data);
      openssl(['ts', '-query', '-data', 'data.bin', '-sha256', '-cert', '-out', 'q.tsq'], dir);
      openssl(
        ['ts', '-reply', '-config', 'ca.cnf', '-section', 'tsa_good', '-queryfile', 'q.tsq'].concat([
          '-signer',
          `${signer}.pem`,
          '-inkey',
          `${signer}.key`,
          '-chain',
          'root.pem',
          '-token_out',
          '-out',
          'token.der',
        ]),
        dir,
      );
      const check = await checkTimestampToken(readFileSync(join(dir, 'token.der')), {
        data,
        certificates: [rootDer],
        trustedRoots: [certificateFingerprint(rootDer)],
      });
      if (!check.ok) throw new Error(`openssl's token did not check: ${check.message}`);
      return { chain: check.chain.map(bytesToBase64), genTime: check.genTime };
    },
    async revoke(signer, reason) {
      openssl(
        ['ca', '-config', 'ca.cnf', '-name', 'ca_root', '-revoke', `${signer}.pem`, '-crl_reason', reason],
        dir,
      );
      crl('root');
      // openssl ocsp reads its index once: started again, it answers with the revocation.
      stopResponder();
      await startResponder();
    },
    async expiredResponse(signer, before) {
      const pkijs = await import('pkijs');
      const { signedOcspResponse } = await import('../../sandbox/demo-tsa-status');
      const parse = (file: string) =>
        pkijs.Certificate.fromBER(new Uint8Array(openssl(['x509', '-in', file, '-outform', 'DER'], dir)));
      const root = parse('root.pem');
      const certID = new pkijs.CertID();
      await certID.createForCertificate(parse(`${signer}.pem`), {
        hashAlgorithm: 'SHA-1',
        issuerCertificate: root,
      });
      const jwk = createPrivateKey(readFileSync(join(dir, 'root.key'))).export({ format: 'jwk' });
      const key = await globalThis.crypto.subtle.importKey(
        'jwk',
        jwk,
        { name: 'ECDSA', namedCurve: 'P-256' },
        false,
        ['sign'],
      );
      const day = 86_400_000;
      return signedOcspResponse({
        responder: root,
        key,
        answers: [{ certID, good: true }],
        thisUpdate: new Date(Math.floor((before.getTime() - 2 * day) / 1000) * 1000),
        nextUpdate: new Date(before.getTime() - day),
      });
    },
    stopResponder,
    startResponder,
    async close() {
      stopResponder();
      files_.closeAllConnections();
      await new Promise<void>((resolve) => files_.close(() => resolve()));
    },
  };
}
