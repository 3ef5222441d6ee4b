import { execFileSync } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshNonce, readTimestampResponse, timestampRequest } from '../../verifier/timestamp/exchange';
import { certificateFingerprint, checkTimestampToken } from '../../verifier/timestamp/token';
import { cutCertificates } from '../../verifier/timestamp/token-certificates';
import type { OpensslTsa } from '../support/openssl-tsa';
import { startOpensslTsa } from '../support/openssl-tsa';

// The token checks that a well-formed answer can still fail, on tokens OpenSSL's TSA signed.
let tsa: OpensslTsa;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-token-'));
  tsa = await startOpensslTsa(dir);
});
afterAll(async () => {
  await tsa.close();
  rmSync(dir, { recursive: true, force: true });
});

const data = new Uint8Array(32).fill(42);

async function token(): Promise<{ token: Uint8Array; nonce: bigint; response: Uint8Array }> {
  const nonce = freshNonce((bytes) => randomFillSync(bytes));
  const answer = await fetch(tsa.url, {
    method: 'POST',
    headers: { 'content-type': 'application/timestamp-query' },
    body: Buffer.from(timestampRequest(createHash('sha256').update(data).digest(), nonce)),
  });
  const response = new Uint8Array(await answer.arrayBuffer());
  const read = readTimestampResponse(response);
  if (!('token' in read)) throw new Error(JSON.stringify(read));
  return { token: read.token, nonce, response };
}

const trust = () => ({ certificates: [tsa.rootDer], trustedRoots: [certificateFingerprint(tsa.rootDer)] });

describe('an RFC 3161 token', () => {
  it('holds with its data, nonce and trusted root, naming the authority and the time', async () => {
    const { token: der, nonce } = await token();
    const check = await checkTimestampToken(der, { data, nonce, ...trust() });
    expect(check).toMatchObject({ ok: true, authority: 'tsa-signer' });
    expect(check.ok && Math.abs(check.genTime.getTime() - Date.now())).toBeLessThan(60_000);
    // A stored token is checked without the nonce, and still holds.
    expect(await checkTimestampToken(der, { data, ...trust() })).toMatchObject({ ok: true });
  });

  it('is taken from the answer byte for byte, as OpenSSL takes it out', async () => {
    const { token: der, response } = await token();
    writeFileSync(join(dir, 'answer.tsr'), response);
    execFileSync('openssl', [
      'ts',
      '-reply',
      '-in',
      join(dir, 'answer.tsr'),
      '-token_out',
      '-out',
      join(dir, 'token.der'),
    ]);
    expect(Buffer.from(der).equals(readFileSync(join(dir, 'token.der')))).toBe(true);
    // An answer cut short is no answer, rather than a token cut short.
    expect(readTimestampResponse(response.subarray(0, response.length - 1))).toEqual({
      unreadable: 'not_a_response',
    });
  });

  it('fails on a changed signature byte, other data, or a root nobody trusts', async () => {
    const { token: der } = await token();
    const broken = der.slice();
    // The signature is the last element of the SignerInfo, at the very end of the token.
    broken[broken.length - 3] = (broken[broken.length - 3] ?? 0) ^ 0x01;
    expect(await checkTimestampToken(broken, { data, ...trust() })).toMatchObject({
      ok: false,
      check: 'signature',
    });
    expect(await checkTimestampToken(der, { data: new Uint8Array(32), ...trust() })).toMatchObject({
      ok: false,
      check: 'imprint',
    });
    // pkijs checks no chain unless asked: a token whose root is not trusted must still be refused.
    expect(
      await checkTimestampToken(der, { data, certificates: [tsa.rootDer], trustedRoots: [] }),
    ).toMatchObject({
      ok: false,
      check: 'untrusted',
      rootFingerprint: certificateFingerprint(tsa.rootDer),
    });
    expect(
      await checkTimestampToken(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00]), { data, ...trust() }),
    ).toMatchObject({
      ok: false,
      check: 'format',
    });
  });

  it('cuts out the certificates it carries, and takes a changed certificate as new, never as one read before', async () => {
    const { token: der } = await token();
    const cut = cutCertificates(der);
    // The authority's certificates come out whole, and what is left is the rest of the token.
    expect(cut?.certificates.length).toBeGreaterThan(0);
    const certificates = cut?.certificates ?? [];
    const carried = certificates.reduce((sum, c) => sum + c.length, 0);
    expect(cut?.rest.length).toBeLessThan(der.length - carried);
    expect(await checkTimestampToken(der, { data, ...trust() })).toMatchObject({ ok: true });

    // The same token with one byte of its first certificate changed (inside that certificate's own
    // signature): the certificate read before must not stand in for it.
    const signer = certificates[0] as Uint8Array;
    const changed = der.slice();
    const at = signer.byteOffset - der.byteOffset + signer.length - 2;
    changed[at] = (changed[at] ?? 0) ^ 0x01;
    expect(await checkTimestampToken(changed, { data, ...trust() })).toMatchObject({ ok: false });

    // BER's indefinite length (valid BER, not DER) is left whole for pkijs to read.
    const indefinite = Uint8Array.from([0x30, 0x80, ...der.subarray(4), 0x00, 0x00]);
    expect(cutCertificates(indefinite)).toBeUndefined();
  });
});
