import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../main/store';
import { openStore } from '../../main/store';
import type { Collected } from '../../main/timestamps/validation-collector';
import { collectValidationData } from '../../main/timestamps/validation-collector';
import { base64ToBytes } from '../../verifier/bytes';
import { chainStandingAt } from '../../verifier/timestamp/chain-standing';
import type { IssuedToken, StatusAuthorities, StatusSigner } from '../support/openssl-status';
import { startStatusAuthorities } from '../support/openssl-status';
import { opensslOcsp } from '../support/openssl-ca';
import { englishOf } from '../support/english';

// Validation data against parts that are not ours: an OpenSSL CA, `openssl ocsp` as the responder,
// `openssl ca -gencrl` for CRLs, `openssl ts -reply` for tokens. Ours collects (real HTTP on
// loopback, a real queue file) and checks offline; OpenSSL's `ocsp -respin` and `crl` are the oracles.
let ca: StatusAuthorities;
let dir: string;
let store: Store;
const asked = new Map<string, number>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-status-'));
  ca = await startStatusAuthorities(join(dir, 'ca'));
  store = openStore(join(dir, 'queue.sqlite'));
}, 60_000);
afterAll(async () => {
  store.close();
  await ca.close();
  rmSync(dir, { recursive: true, force: true });
});

const countingFetch = (url: URL | string, init?: RequestInit) => {
  asked.set(String(url), (asked.get(String(url)) ?? 0) + 1);
  return fetch(url, init);
};
const collect = (token: IssuedToken, statuses = store.certificateStatus) =>
  collectValidationData(token.chain, token.genTime, {
    fetch: countingFetch,
    statuses,
    timeoutMs: 5_000,
    now: Date.now,
  });
const kept = (collected: Collected) => {
  if (!collected.ok) throw new Error(`not collected: ${englishOf(collected.problem)}`);
  return collected;
};
const standing = (token: IssuedToken, data: { ocsp: string[]; crl: string[] }) =>
  chainStandingAt(
    token.chain.map(base64ToBytes),
    { ocsp: data.ocsp.map(base64ToBytes), crl: data.crl.map(base64ToBytes) },
    token.genTime,
  );
const problemOf = (collected: Collected) => (collected.ok ? 'collected' : englishOf(collected.problem));
const ocspAsked = () => [...asked].filter(([url]) => !url.endsWith('.crl')).reduce((n, [, c]) => n + c, 0);

/** What OpenSSL says, on both its outputs: verdicts such as "Response verify OK" go to stderr. */
function openssl(args: string[]): string {
  const run = spawnSync('openssl', args, { encoding: 'utf8' });
  return `${run.stdout}${run.stderr}`;
}

/** OpenSSL's own reading of a response we kept: its signature and the certificate's status. */
const opensslOcspOf = (response: string | Uint8Array, signer: StatusSigner) =>
  opensslOcsp(
    dir,
    typeof response === 'string' ? base64ToBytes(response) : response,
    ca.rootFile,
    ca.signerFile(signer),
  );

function opensslCrl(crl: string | Uint8Array): string {
  const file = join(dir, 'list.crl');
  writeFileSync(file, typeof crl === 'string' ? base64ToBytes(crl) : crl);
  return openssl(['crl', '-inform', 'DER', '-in', file, '-CAfile', ca.rootFile, '-noout']);
}

describe('validation data (long-term validation)', () => {
  it('keeps an OCSP response OpenSSL accepts, asks once per certificate while it holds, and takes the CRL when the responder is down', async () => {
    const first = await ca.token('published');
    const collected = kept(await collect(first));
    expect(collected).toMatchObject({ finding: null, data: { crl: [] } });
    expect(collected.data.ocsp).toHaveLength(1);
    const oracle = opensslOcspOf(collected.data.ocsp[0]!, 'published');
    expect(oracle).toMatch(/published\.pem: good/);
    expect(oracle).toMatch(/Response verify OK/);
    expect(await standing(first, collected.data)).toEqual({
      revoked: false,
      standing: { shown: true, sources: ['ocsp'], revokedLater: null },
    });

    // A second token of the same authority: the kept answer still holds, nothing is asked.
    const before = ocspAsked();
    const second = await ca.token('published');
    expect(kept(await collect(second)).data).toEqual(collected.data);
    expect(ocspAsked()).toBe(before);

    // The responder down, nothing kept yet: the certificate's CRL instead.
    ca.stopResponder();
    const fresh = openStore(join(dir, 'fresh.sqlite'));
    try {
      const fromList = kept(await collect(second, fresh.certificateStatus));
      expect(fromList.data).toMatchObject({ ocsp: [] });
      expect(fromList.data.crl).toHaveLength(1);
      expect(opensslCrl(fromList.data.crl[0]!)).toMatch(/verify OK/);
      expect(await standing(second, fromList.data)).toMatchObject({
        standing: { shown: true, sources: ['crl'] },
      });
    } finally {
      fresh.close();
      await ca.startResponder();
    }
  });

  it('says why in words and keeps nothing false: a responder that is down, one that answers for another certificate, an impostor’s CRL, an expired answer', async () => {
    expect(problemOf(await collect(await ca.token('dead-responder')))).toMatch(
      /status service at 127\.0\.0\.1:\d+ could not be reached/,
    );
    expect(problemOf(await collect(await ca.token('wrong-responder')))).toMatch(
      /about wrong-responder: the status kept is about a certificate other than wrong-responder/,
    );
    expect(problemOf(await collect(await ca.token('impostor-crl')))).toMatch(
      /the signature on the status of impostor-crl does not hold/,
    );
    expect(opensslCrl(readFileSync(join(ca.dir, 'impostor.crl')))).toMatch(/verify failure/);

    // An answer properly signed by the root, but valid only until the day before the token.
    const token = await ca.token('published');
    const expired = await ca.expiredResponse('published', token.genTime);
    expect(opensslOcspOf(expired, 'published')).toMatch(/Status times invalid|status expired/i);
    expect(await standing(token, { ocsp: [Buffer.from(expired).toString('base64')], crl: [] })).toEqual({
      revoked: false,
      standing: { shown: false, why: 'not_at_that_time', certificate: 'published' },
    });
  });

  it('a signer revoked before its token fails it; one revoked after keeps it good, unless for key compromise', async () => {
    await ca.revoke('revoked-before', 'superseded');
    const early = await ca.token('revoked-before');
    const collected = kept(await collect(early));
    expect(englishOf(collected.finding)).toMatch(
      /revoked-before was revoked on .*, before it signed this timestamp/,
    );
    expect(opensslOcspOf(collected.data.ocsp[0]!, 'revoked-before')).toMatch(/revoked-before\.pem: revoked/);
    expect(await standing(early, collected.data)).toMatchObject({ revoked: true, compromise: false });

    const later = await ca.token('revoked-after');
    const compromised = await ca.token('compromised-after');
    // Revocation times are whole seconds: the next second is after both tokens.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await ca.revoke('revoked-after', 'superseded');
    await ca.revoke('compromised-after', 'keyCompromise');

    const stillGood = kept(await collect(later));
    expect(stillGood.finding).toBeNull();
    expect(opensslOcspOf(stillGood.data.ocsp[0]!, 'revoked-after')).toMatch(/Reason: superseded/);
    const after = await standing(later, stillGood.data);
    expect(after).toMatchObject({ revoked: false, standing: { shown: true } });
    expect(after.revoked === false && after.standing.shown && after.standing.revokedLater).toBeTruthy();

    const bad = kept(await collect(compromised));
    expect(englishOf(bad.finding)).toMatch(
      /compromised-after was revoked on .* because its key was compromised/,
    );
    expect(opensslOcspOf(bad.data.ocsp[0]!, 'compromised-after')).toMatch(/Reason: keyCompromise/);
    expect(await standing(compromised, bad.data)).toMatchObject({ revoked: true, compromise: true });
  });
});
