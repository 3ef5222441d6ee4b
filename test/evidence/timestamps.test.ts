import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EvidenceCore } from '../../main/core';
import type { Receipt } from '../../protocol/receipt';
import type { CertificationRow } from '../../protocol/views';
import type { Sandbox } from '../../sandbox/server';
import { profileSetArgs, runCli } from '../support/cli';
import type { TestWorkspace } from '../support/core';
import { METADATA, openCore, useSandboxProfile, workspace } from '../support/core';
import type { OpensslTsa, TsaBehaviour } from '../support/openssl-tsa';
import { startOpensslTsa } from '../support/openssl-tsa';
import { opensslOcsp, pemFile } from '../support/openssl-ca';
import { startTestSandbox } from '../support/sandbox';
import { englishOf } from '../support/english';
import { bouncyCastle } from '../support/bouncy-castle';

const EVENT_AND_KIND = ['--event-type', METADATA.event_type, '--asset-type', METADATA.asset_type];

// Independent time against a TSA that is not ours: OpenSSL's `ts -reply` on loopback, with CAs
// OpenSSL made. A real core, a real queue file and keychain, a real sandbox anchoring every 100 ms.
let tsa: OpensslTsa;
let tsaDir: string;
let sandbox: Sandbox;
let ws: TestWorkspace;
let core: EvidenceCore;

beforeAll(async () => {
  tsaDir = mkdtempSync(join(tmpdir(), 'evidence-openssl-tsa-'));
  tsa = await startOpensslTsa(tsaDir);
  sandbox = await startTestSandbox({ batchIntervalMs: 100 });
});
afterAll(async () => {
  await tsa.close();
  await sandbox.stop();
  rmSync(tsaDir, { recursive: true, force: true });
});
beforeEach(async () => {
  ws = workspace('evidence-timestamps-');
  tsa.behaviour = 'good';
  tsa.requests = 0;
  tsa.rationMs = 0;
  tsa.refusedForPace = 0;
  tsa.requestedAt = [];
  core = await openCore(ws.dataDir, {
    // The openssl authority answers one request at a time, each with several openssl processes:
    // batches still waiting retry at most every 2 s (every 0.6 s, their retries queued up behind
    // each other under a full run's load until a new batch's request missed its timeout). Its
    // unscrupulous tokens take four openssl runs, more than 5 s on a loaded machine: 10 s to answer.
    timestampPacing: { timeoutMs: 10_000, firstRetryMs: 300, capMs: 2000, strayAfterMs: 60_000 },
  });
  await useSandboxProfile(core, sandbox, 'with-tsa', {
    tsa: { url: tsa.url, trustedCertificates: tsa.rootPem },
  });
});
afterEach(async () => {
  await core.close();
  ws.cleanup();
});

async function until(
  ids: number[],
  done: (row: CertificationRow) => boolean,
  what: string,
  // A batch sealed while a round waits on a silent authority is asked in the next round: two
  // timeouts of 10 s, and the openssl authority's queue on a loaded machine.
  withinMs = 35_000,
): Promise<CertificationRow[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const rows = core.queue.rows(ids);
    if (rows.every(done)) return rows;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let fileCount = 0;
const newFiles = (n: number) =>
  ws.files(
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`doc-${++fileCount}-${i}.pdf`, `content ${fileCount} ${i}`]),
    ),
  );

describe('independent time (RFC 3161)', () => {
  it('asks the authority once per batch, keeps a token OpenSSL accepts, and receipts say who confirmed the time', async () => {
    const { queued } = await core.certify(newFiles(6), METADATA);
    const ids = queued;
    const rows = await until(ids, (row) => row.timestampState === 'confirmed', 'the timestamp');
    expect(tsa.requests).toBe(1);
    expect(rows.map((row) => row.timeConfirmedBy)).toEqual(Array(6).fill('tsa-signer'));
    await core.sync.waitUntilSettled(ids, 15_000);

    const receipt = core.exports.receipt(ids[3]!);
    expect(receipt.timestamp).toMatchObject({ authority: 'tsa-signer', url: tsa.url });
    // OpenSSL, not our code, checks the token over the batch's RFC 4998 root (its imprint), against the root it made.
    writeFileSync(join(ws.dir, 'token.der'), Buffer.from(receipt.timestamp!.token, 'base64'));
    const oracle = execFileSync('openssl', [
      'ts',
      '-verify',
      '-digest',
      receipt.timestamp!.root,
      '-in',
      join(ws.dir, 'token.der'),
      '-token_in',
      '-CAfile',
      tsa.rootFile,
    ]).toString();
    expect(oracle).toContain('Verification: OK');

    // The signer's CRL, kept with the token once it came: OpenSSL checks it against the same root.
    const [kept] = await until(
      [ids[3]!],
      () => core.exports.receipt(ids[3]!).timestamp?.validation != null,
      'the CRL',
    );
    expect(kept!.timestampProblem).toBeNull();
    const { validation } = core.exports.receipt(ids[3]!).timestamp!;
    expect(validation).toMatchObject({ ocsp: [] });
    writeFileSync(join(ws.dir, 'root.crl'), Buffer.from(validation!.crl[0]!, 'base64'));
    const crlOracle = spawnSync(
      'openssl',
      ['crl', '-inform', 'DER', '-in', join(ws.dir, 'root.crl')].concat(['-CAfile', tsa.rootFile, '-noout']),
      { encoding: 'utf8' },
    );
    expect(crlOracle.stderr).toContain('verify OK');
    // The document's evidence record carries the token with its chain and that CRL inside: Bouncy
    // Castle checks it for the document's bytes, revocation included; one changed byte fails it.
    const record = Buffer.from(core.exports.receipt(ids[3]!).evidence_record!, 'base64');
    const documentBytes = readFileSync(core.queue.rows([queued[3]!])[0]!.filePath);
    const castle = await bouncyCastle(ws.dir);
    const theirs = await castle.validate(record, documentBytes, tsa.rootFile, { revocation: true });
    expect(theirs.code, theirs.said).toBe(0);
    documentBytes[0] = (documentBytes[0] as number) ^ 1;
    expect((await castle.validate(record, documentBytes, tsa.rootFile)).code).toBe(1);

    const path = join(ws.dir, 'doc.receipt.json');
    writeFileSync(path, JSON.stringify(core.exports.receipt(ids[3]!)));
    const verified = await runCli(ws.dataDir, [
      'verify',
      core.queue.rows([queued[3]!])[0]!.filePath,
      '--receipt',
      path,
    ]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(
      `Time confirmed by tsa-signer at ${receipt.timestamp!.gen_time} (RFC 3161).`,
    );
    expect(verified.stdout).toMatch(
      /Authority’s standing then: In good standing at that time, according to signed status information \(CRL, kept with the timestamp\)/,
    );
    expect(verified.stdout).toMatch(
      /Evidence record \(RFC 4998\): Proves the time above; not renewed yet; holds until \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
  }, 60_000);

  it('keeps each token’s validation data: says why while the status service is away, collects it when it is back, and receipts carry it', async () => {
    await useSandboxProfile(core, sandbox, 'demo-tsa', {
      tsa: { url: sandbox.tsa.url, trustedCertificates: sandbox.tsa.rootPem },
    });
    sandbox.setFaults({ withoutPaths: ['/tsa/ocsp', '/tsa/root.crl'] });
    let ids: number[];
    try {
      const { queued } = await core.certify(newFiles(2), METADATA);
      ids = queued;
      const [away] = await until(ids, (row) => row.timestampProblem !== null, 'the status service away');
      // The token is kept all the same: the time is confirmed, the data to prove it later is not yet.
      expect(away!.timestampState).toBe('confirmed');
      expect(englishOf(away!.timestampProblem)).toMatch(
        /^The information that lets anyone check this time after the authority’s certificate expires has not been collected yet: the status service at 127\.0\.0\.1:\d+ answered HTTP 404\./,
      );
      // The command line says it on the row too, after the time.
      const listed = await runCli(ws.dataDir, ['status', '--list']);
      expect(listed.stdout).toMatch(
        /time confirmed .* by DEMO Evidence Sandbox Timestamping Authority \(RFC 3161\)\. The information that lets anyone check this time .* has not been collected yet/,
      );
      // The OCSP responder comes back first, the CRL stays away: what is collected is OCSP's answer
      // (a look that asked OCSP before both came back and the CRL after kept the CRL).
      sandbox.setFaults({ withoutPaths: ['/tsa/root.crl'] });
      await until(
        ids,
        (row) => row.timestampProblem === null && row.state === 'anchored',
        'the validation data',
      );
    } finally {
      sandbox.setFaults({ withoutPaths: [] });
    }
    const receipt = core.exports.receipt(ids[0]!);
    expect(receipt.format).toBe('evidence-desk-receipt/v4');
    const stamp = receipt.timestamp!;
    expect(stamp.validation!.ocsp).toHaveLength(1);
    // OpenSSL reads the sandbox's OCSP answer kept in the receipt: signed by the root, "good".
    const bytes = (base64: string) => Buffer.from(base64, 'base64');
    const ocsp = opensslOcsp(
      ws.dir,
      bytes(stamp.validation!.ocsp[0]!),
      pemFile(ws.dir, 'root', bytes(stamp.chain[1]!)),
      pemFile(ws.dir, 'signer', bytes(stamp.chain[0]!)),
    );
    expect(ocsp).toMatch(/signer\.pem: good/);
    expect(ocsp).toContain('Response verify OK');
  }, 60_000);

  it('keeps the request with a reason in words for every bad answer, never blocks the certification, and confirms once the authority answers well', async () => {
    const bad: [TsaBehaviour, RegExp][] = [
      ['html', /answered with a web page, not a timestamp/],
      ['garbage', /not an RFC 3161 timestamp response/],
      ['rejection', /rejected the request: “bad request”/],
      ['other-imprint', /for other data than this batch/],
      ['other-nonce', /answers another request \(its nonce is not ours\)/],
      ['no-usage', /not one for timestamping/],
      ['unbound-signer', /does not name the certificate that signed it \(ESSCertID\)/],
      ['expired-signer', /outside its signing certificate’s validity/],
      ['untrusted-root', /chains to a root certificate this computer does not trust/],
      ['silent', /did not answer within 10 seconds/],
    ];
    const ids: number[] = [];
    for (const [behaviour, reason] of bad) {
      tsa.behaviour = behaviour;
      const { queued } = await core.certify(newFiles(1), METADATA);
      ids.push(queued[0]!);
      const [row] = await until([queued[0]!], (r) => r.timestampProblem !== null, behaviour);
      expect(row!.timestampState, behaviour).toBe('waiting');
      expect(englishOf(row!.timestampProblem), behaviour).toMatch(reason);
    }
    // A silent authority holds no batch behind another's timeout: every batch waiting says so within
    // two timeouts, not one timeout after another (nine batches: 90 s).
    await until(
      ids,
      (row) => /did not answer within 10 seconds/.test(englishOf(row.timestampProblem) ?? ''),
      'every waiting batch told the authority is silent',
      25_000,
    );
    // Nothing waited for the authority: every certification anchored meanwhile.
    await until(ids, (row) => row.state === 'anchored', 'anchoring');
    // Nothing was lost: once the authority answers well, every waiting batch is confirmed.
    tsa.behaviour = 'good';
    const rows = await until(ids, (row) => row.timestampState === 'confirmed', 'recovery');
    expect(rows.every((row) => row.timestampProblem === null && row.timeConfirmedBy === 'tsa-signer')).toBe(
      true,
    );
  }, 120_000);

  it('saves a kit its authority cannot seal now, says so everywhere, and adds the seal to its folder and zip once the authority answers', async () => {
    const files = newFiles(2);
    const ids = (await core.certify(files, METADATA)).queued;
    await until(ids, (row) => row.state === 'anchored' && row.timestampState === 'confirmed', 'confirmed');
    // The authority refuses when the kit asks for its seal: the kit is saved whole, not sealed yet.
    tsa.behaviour = 'rejection';
    const dir = join(ws.dir, 'waiting kit');
    const zip = join(ws.dir, 'waiting kit.zip');
    const saved = await core.exports.exportEvidence({ ids }, { dir, zip });
    expect(englishOf(saved.sealWaiting)).toMatch(
      /^The evidence kit was saved, but it is not sealed yet: .*rejected the request: “bad request”.* Evidence Desk asks the timestamping authority again and adds the seal to the kit when it answers/,
    );
    expect(readFileSync(join(dir, 'META-INF', 'seal-waiting.txt'), 'utf8')).toMatch(
      /^THIS KIT IS NOT SEALED YET\n[\s\S]*could not seal it then: .*rejected the request/,
    );
    expect(existsSync(join(dir, 'META-INF', 'timestamp.tst'))).toBe(false);
    expect(existsSync(zip)).toBe(true);
    // The command line says it too, and a check of the kit says it is not sealed (not broken).
    const status = await runCli(ws.dataDir, ['status']);
    expect(status.stdout).toMatch(
      /One seal is waiting for the timestamping authority, for .*waiting kit.*: The timestamping authority .* rejected the request/,
    );
    const docs = join(ws.dir, 'docs');
    const trust = ['--log-key', join(dir, 'log-key.pem'), '--tsa-root', join(dir, 'tsa-root.pem')];
    const before = await runCli(ws.dataDir, ['verify', docs, '--against', zip, ...trust]);
    expect(before.stdout).toContain('The kit is not sealed as a whole');
    // The authority answers again: the app adds the seal to the folder and the zip, and the note goes.
    tsa.behaviour = 'good';
    const deadline = Date.now() + 30_000;
    while (!existsSync(join(dir, 'META-INF', 'timestamp.tst')) || core.exports.sealsWaiting()) {
      if (Date.now() > deadline) throw new Error('The waiting seal was never added');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(existsSync(join(dir, 'META-INF', 'seal-waiting.txt'))).toBe(false);
    // OpenSSL checks the token over the manifest as saved, with the authority's certificates beside it.
    // From the kit's folder, as its README says: OpenSSL reads a path with a space as two.
    const meta = (name: string) => `META-INF/${name}`;
    const checked = spawnSync(
      'openssl',
      [
        'ts',
        '-verify',
        '-data',
        meta('ASiCManifest.xml'),
        '-in',
        meta('timestamp.tst'),
        '-token_in',
        '-CAfile',
        meta('timestamp-root.pem'),
        '-untrusted',
        meta('timestamp-chain.pem'),
      ],
      { encoding: 'utf8', cwd: dir },
    );
    expect(checked.stdout + checked.stderr).toContain('Verification: OK');
    for (const kit of [dir, zip]) {
      const after = await runCli(ws.dataDir, ['verify', docs, '--against', kit, ...trust]);
      expect(after.stdout, kit).toMatch(/The kit is sealed: all \d+ of its files are as they were/);
    }
    expect((await runCli(ws.dataDir, ['status'])).stdout).not.toMatch(/seals? (is|are) waiting/);
  }, 90_000);

  it('asks an authority at its pace: a burst of drops, a certificate and a kit, never refused for pace; and waits as long as it asks', async () => {
    // A public authority that refuses a request sooner than a second after the last, as Sectigo
    // does at 15 s: the profile names its interval.
    tsa.rationMs = 1_000;
    await useSandboxProfile(core, sandbox, 'with-tsa', {
      tsa: { url: tsa.url, trustedCertificates: tsa.rootPem, minIntervalSeconds: 1 },
    });
    // A burst of three drops, the first of 48 documents: the kit below is of 50.
    const ids: number[] = [];
    for (const size of [48, 1, 1]) ids.push(...(await core.certify(newFiles(size), METADATA)).queued);
    await until(ids, (row) => row.state === 'anchored' && row.timestampState === 'confirmed', 'the burst');
    // A kit of all 50 against the rationing authority: complete, and sealed by one request at its pace.
    const whole = join(ws.dir, 'kit of 50');
    await core.exports.exportEvidence({ ids }, { dir: whole });
    expect(existsSync(join(whole, 'META-INF', 'timestamp.tst'))).toBe(true);
    expect(readdirSync(join(whole, 'certifications'))).toHaveLength(150);
    // A certificate sealed here, then at once the kit from a command run beside the app: the pace
    // (now Sectigo's 15 s) is kept for every process here, and the command says what it waits for.
    // At 5 s, a loaded machine started the command and read its kit after the pace had passed.
    await useSandboxProfile(core, sandbox, 'with-tsa', {
      tsa: { url: tsa.url, trustedCertificates: tsa.rootPem, minIntervalSeconds: 15 },
    });
    const [first] = core.queue.rows(ids);
    await core.exports.saveCertificate(first!.id, join(ws.dir, 'alone.certificate.pdf'));
    // Cancelled while its seal waits for the pace (a tenth of a second into the wait, as a person
    // clicks Cancel): stopped then, and nothing of the kit kept.
    const stop = new AbortController();
    const cancelled = join(ws.dir, 'cancelled kit');
    const waited: (number | null)[] = [];
    const saving = core.exports.exportEvidence(
      { ids: ids.slice(-3) },
      {
        dir: cancelled,
        signal: stop.signal,
        onSealing: (until) => {
          waited.push(until);
          if (until !== null) setTimeout(() => stop.abort(), 100);
        },
      },
    );
    await expect(saving).rejects.toMatchObject({ code: 'cancelled' });
    // Stopped then, not once the pace would have let the seal go.
    expect(waited).toEqual([null, expect.any(Number)]);
    expect(Date.now()).toBeLessThan(waited[1]!);
    expect(existsSync(cancelled)).toBe(false);
    const kit = join(ws.dir, 'paced kit');
    const exported = await runCli(ws.dataDir, ['export', '--out', kit, '--ids', ids.slice(-3).join(',')]);
    expect(exported.code, exported.stderr).toBe(0);
    // It says why it takes: the authority's pace, until when.
    expect(exported.stderr).toMatch(
      /^sealing the kit: waiting for the timestamping authority’s pace, until \d{4}-\d\d-\d\dT[\d:.]+Z$/m,
    );
    expect(existsSync(join(kit, 'META-INF', 'timestamp.tst'))).toBe(true);
    expect(readFileSync(join(ws.dir, 'alone.certificate.pdf'), 'latin1')).toContain('/DocTimeStamp');
    // Three batch tokens, the kit of 50's seal, one certificate's two (PAdES B-LTA) and one kit's
    // (another process): never asked faster than allowed.
    expect(tsa.refusedForPace).toBe(0);
    expect(tsa.requestedAt.length).toBeGreaterThanOrEqual(7);
    const gaps = tsa.requestedAt.slice(1).map((at, i) => at - tsa.requestedAt[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1_000);

    // An authority that says "too many, ask again in 2 s": the batch says so in words, and the
    // next request waits for it.
    await useSandboxProfile(core, sandbox, 'with-tsa', {
      tsa: { url: tsa.url, trustedCertificates: tsa.rootPem, minIntervalSeconds: 1 },
    });
    tsa.rationMs = 0;
    tsa.busyOnce = 2;
    const before = tsa.requestedAt.length;
    const { queued } = await core.certify(newFiles(1), METADATA);
    const [told] = await until([queued[0]!], (row) => row.timestampProblem !== null, 'the 429');
    expect(englishOf(told!.timestampProblem)).toMatch(/asked not to be asked again before \d{4}-\d\d-\d\dT/);
    await until([queued[0]!], (row) => row.timestampState === 'confirmed', 'after the 429');
    const [refusedAt, askedAgainAt] = tsa.requestedAt.slice(before);
    expect(askedAgainAt! - refusedAt!).toBeGreaterThanOrEqual(2_000);
  }, 90_000);

  it('is chosen with profile set --tsa-url and --tsa-ca, shown by profile show, and refused without its roots', async () => {
    const client = sandbox.createClient();
    const roots = join(ws.dir, 'tsa-roots.pem');
    writeFileSync(roots, tsa.rootPem);
    const args = profileSetArgs('cli-tsa', sandbox, client.clientId, '--tsa-url', tsa.url);
    const refused = await runCli(ws.dataDir, args, `${client.clientSecret}\n`);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(
      /--tsa-url needs --tsa-ca: the root certificate\(s\) the authority publishes/,
    );
    const saved = await runCli(
      ws.dataDir,
      [...args, '--tsa-ca', roots, '--tsa-interval', '15', '--use'],
      `${client.clientSecret}\n`,
    );
    expect(saved.code, saved.stderr).toBe(0);
    const shown = await runCli(ws.dataDir, ['profile', 'show']);
    expect(shown.stdout).toContain(
      `timestamps:     ${tsa.url} (RFC 3161), trusted by 1 root certificate, at most one request every 15 s`,
    );

    // `certify --wait` waits for the batch's time too: a token the authority grants after the
    // document is anchored is kept, not lost as the command closes. (A data folder of its own:
    // no app beside it sending the same queue.)
    const alone = join(ws.dir, 'cli alone');
    const other = sandbox.createClient();
    const aloneArgs = profileSetArgs(
      'cli-tsa',
      sandbox,
      other.clientId,
      '--tsa-url',
      tsa.url,
      '--tsa-ca',
      roots,
    );
    expect((await runCli(alone, [...aloneArgs, '--use'], `${other.clientSecret}\n`)).code).toBe(0);
    tsa.behaviour = 'slow';
    const [late] = ws.files({ 'late time.pdf': 'time granted after anchoring' });
    const certified = await runCli(alone, ['certify', late!, ...EVENT_AND_KIND, '--wait']);
    expect(certified.code, certified.stderr).toBe(0);
    // The command line says each row's time: in certify's lines, status --list and their --json.
    expect(certified.stdout).toMatch(
      /late time\.pdf {2}anchored, evidence verified; time confirmed .+ by .+ \(RFC 3161\)/,
    );
    const listed = await runCli(alone, ['status', '--list', '--json']);
    const [row] = (JSON.parse(listed.stdout) as { certifications: { time: unknown }[] }).certifications;
    expect(row?.time).toEqual({
      state: 'confirmed',
      confirmed_by: expect.any(String),
      confirmed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      problem: null,
    });
    const kit = join(ws.dir, 'late kit');
    expect((await runCli(alone, ['export', '--out', kit, '--receipts-only'])).code).toBe(0);
    const receipt = JSON.parse(
      readFileSync(join(kit, 'certifications', 'late time.pdf.receipt.json'), 'utf8'),
    ) as Receipt;
    expect(receipt.timestamp?.gen_time).toMatch(/^\d{4}-/);

    // An authority that never answers holds no command: certify --wait ends a few seconds after its
    // documents are anchored, the batch says it was asked and has no answer yet, and the next run
    // asks again and keeps the token.
    tsa.behaviour = 'silent';
    const [unanswered] = ws.files({ 'unanswered.pdf': 'time asked of a silent authority' });
    const started = Date.now();
    const waited = await runCli(alone, ['certify', unanswered!, ...EVENT_AND_KIND, '--wait']);
    expect(waited.code, waited.stderr).toBe(0);
    // Anchoring here takes about a second; the authority's timeout is 30 s.
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(waited.stdout).toMatch(/unanswered\.pdf {2}anchored, .*no answer yet/);
    const asked = await runCli(alone, ['status', '--list', '--json']);
    const unansweredRow = (
      JSON.parse(asked.stdout) as {
        certifications: { file: string; time: { state: string; problem: string } }[];
      }
    ).certifications.find((row) => row.file.endsWith('unanswered.pdf'));
    expect(unansweredRow?.time).toMatchObject({
      state: 'waiting',
      problem: expect.stringMatching(/no answer yet/),
    });
    tsa.behaviour = 'good';
    const synced = await runCli(alone, ['sync', '--wait']);
    expect(synced.code, synced.stderr).toBe(0);
    const after = await runCli(alone, ['status', '--list', '--json']);
    const confirmed = (
      JSON.parse(after.stdout) as { certifications: { file: string; time: { state: string } }[] }
    ).certifications.find((row) => row.file.endsWith('unanswered.pdf'));
    expect(confirmed?.time.state).toBe('confirmed');
  }, 90_000);
});
