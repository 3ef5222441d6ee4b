import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the OpenSSL authorities of the tests share: running openssl, its CA and TSA sections, a free port. */

export const openssl = (args: string[], cwd: string, input?: Buffer) =>
  execFileSync('openssl', args, { cwd, input, stdio: ['pipe', 'pipe', 'pipe'] });

/** A new P-256 key, unencrypted: quick to make, and what real TSAs use as often as RSA. */
export const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** An `openssl ca` section for a CA named `name`, its files in `dir`. */
export const caSection = (dir: string, name: string) => `
[ ca_${name} ]
dir = ${dir}
database = ${dir}/index-${name}.txt
new_certs_dir = ${dir}/issued
certificate = ${dir}/${name}.pem
private_key = ${dir}/${name}.key
serial = ${dir}/serial-${name}
default_md = sha256
default_crl_days = 7
policy = any
unique_subject = no
`;

/** The `openssl ts -reply` section every test authority signs under. */
export const tsaSection = (dir: string) => `[ tsa_good ]
dir = ${dir}
serial = ${dir}/tsaserial
crypto_device = builtin
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
digests = sha256, sha512
accuracy = secs:1
ordering = no
tsa_name = no
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;

/** A port free on loopback now: for addresses that must be written into certificates before listening. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A certificate's DER written as `name.pem` in `dir` (by OpenSSL): what its commands take. */
export function pemFile(dir: string, name: string, der: Uint8Array): string {
  writeFileSync(join(dir, `${name}.der`), der);
  execFileSync('openssl', ['x509', '-inform', 'DER', '-in', `${name}.der`, '-out', `${name}.pem`], {
    cwd: dir,
  });
  return join(dir, `${name}.pem`);
}

/**
 * OpenSSL's own reading of an OCSP answer (DER) about `certFile`, issued by `issuerFile` under
 * `rootFile`: the status on stdout, then "Response verify OK" (or why not) on stderr, together.
 */
export function opensslOcsp(
  dir: string,
  answer: Uint8Array,
  issuerFile: string,
  certFile: string,
  rootFile = issuerFile,
): string {
  writeFileSync(join(dir, 'ocsp-answer.der'), answer);
  const run = spawnSync(
    'openssl',
    ['ocsp', '-respin', 'ocsp-answer.der', '-issuer', issuerFile, '-cert', certFile, '-CAfile', rootFile],
    { cwd: dir, encoding: 'utf8' },
  );
  return `${run.stdout}${run.stderr}`;
}
