import { execFileSync } from 'node:child_process';
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
digests = sha256
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
