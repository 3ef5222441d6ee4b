/**
 * A private certificate authority and a server certificate for the sandbox's address, made with
 * openssl: `npm run sandbox -- --tls` serves HTTPS with them, and tests use them to stand in for a
 * corporate CA (TLS inspection, an internal service). Short-lived, P-256, written to `dir`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalCertificates {
  caFile: string;
  certFile: string;
  keyFile: string;
}

export function makeLocalCertificates(
  dir: string,
  hosts: readonly string[] = ['127.0.0.1', 'localhost'],
): LocalCertificates {
  mkdirSync(dir, { recursive: true });
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    path('ca.key'),
    '-out',
    path('ca.pem'),
    '-days',
    '30',
    '-subj',
    '/CN=Evidence Desk sandbox CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl(
    'req',
    ...ec,
    '-keyout',
    path('server.key'),
    '-out',
    path('server.csr'),
    '-subj',
    `/CN=${hosts[0]}`,
  );
  const names = hosts.map((host) => (/^[\d.]+$|:/.test(host) ? `IP:${host}` : `DNS:${host}`)).join(',');
  writeFileSync(
    path('server.ext'),
    `subjectAltName=${names}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
  );
  openssl(
    'x509',
    '-req',
    '-in',
    path('server.csr'),
    '-CA',
    path('ca.pem'),
    '-CAkey',
    path('ca.key'),
    '-CAcreateserial',
    '-out',
    path('server.pem'),
    '-days',
    '30',
    '-extfile',
    path('server.ext'),
  );
  return { caFile: path('ca.pem'), certFile: path('server.pem'), keyFile: path('server.key') };
}
