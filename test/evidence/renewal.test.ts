import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceCore } from '../../main/core';
import type { CertificationRow } from '../../protocol/views';
import { recordSaid } from '../../protocol/fact-lines';
import { plainEnglish } from '../../protocol/locales/plain';
import type { Sandbox } from '../../sandbox/server';
import { certificateFingerprint } from '../../verifier/timestamp/certificate-bytes';
import { checkRecord } from '../../verifier/evidence-record/check-record';
import {
  imprintAlgorithmOf,
  imprintHashOf,
  readEvidenceRecord,
  recordDer,
} from '../../verifier/evidence-record/evidence-record';
import { validationDataIn } from '../../verifier/evidence-record/token-validation';
import { batchTree } from '../../verifier/merkle';
import type { BouncyCastle } from '../support/bouncy-castle';
import { bouncyCastle } from '../support/bouncy-castle';
import { CLI, runCli, runCliWith } from '../support/cli';
import { KeychainSecretStore } from '../../main/secrets/secret-store';
import type { TestWorkspace } from '../support/core';
import { METADATA, openCore, useSandboxProfile, workspace } from '../support/core';
import type { OpensslTsa } from '../support/openssl-tsa';
import { startOpensslTsa } from '../support/openssl-tsa';
import { startTestSandbox } from '../support/sandbox';

// Evidence records that renew themselves, against a TSA that is not ours (OpenSSL's `ts -reply`)
// whose first signer's certificate is valid for an hour either side of now, and a clock the test
// moves. A real core, queue file, keychain and sandbox; Bouncy Castle checks every record.
const MINUTE = 60_000;
const PDF_PICTURES = join(process.cwd(), 'test-results', 'pdf');
let dir: string;
let tsa: OpensslTsa;
let sandbox: Sandbox;
let castle: BouncyCastle;
let ws: TestWorkspace;
let core: EvidenceCore;
let clockAhead = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-renewal-'));
  tsa = await startOpensslTsa(join(dir, 'tsa'));
  sandbox = await startTestSandbox({ batchIntervalMs: 100 });
  castle = await bouncyCastle(dir);
  ws = workspace('evidence-renewal-');
  core = await openCore(ws.dataDir, {
    timestampPacing: { timeoutMs: 10_000, firstRetryMs: 300, capMs: 2000, strayAfterMs: 60_000 },
    // Renewed 30 minutes before a certificate ends; the background looks hourly (the test asks itself).
    renewal: { marginMs: 30 * MINUTE, checkEveryMs: 60 * MINUTE },
    clock: () => Date.now() + clockAhead,
  });
  await useSandboxProfile(core, sandbox, 'with-tsa', {
    tsa: { url: tsa.url, trustedCertificates: tsa.rootPem },
  });
});
afterAll(async () => {
  await core.close();
  ws.cleanup();
  await tsa.close();
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function until<T>(read: () => T, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 35_000;
  for (;;) {
    const value = read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());
type Queued = CertificationRow;
const sha512 = (bytes: Uint8Array) => new Uint8Array(createHash('sha512').update(bytes).digest());
const recordOf = (id: number) => Buffer.from(core.exports.receipt(id).evidence_record!, 'base64');
/** The command line's verdict on a file with a receipt, as JSON. */
const verifiedAs = async (file: string, receipt: string) =>
  JSON.parse((await runCli(ws.dataDir, ['verify', file, '--receipt', receipt, '--json'])).stdout) as unknown;
const trust = () => ({
  certificates: [],
  trustedRoots: [certificateFingerprint(new Uint8Array(tsa.rootDer))],
});

describe('evidence records renewing themselves (RFC 4998 §5.2)', () => {
  it('renew every record on the desk with one request before the authority’s certificate ends, each checked by Bouncy Castle; one left past the end needs attention', async () => {
    tsa.behaviour = 'short-lived';
    // Two drops, so two batches (two records to renew) under the short-lived signer.
    const first = await core.certify(
      ws.files({ 'contract.pdf': 'the contract', 'annex.pdf': 'the annex' }),
      METADATA,
    );
    const second = await core.certify(ws.files({ 'letter.pdf': 'the letter' }), METADATA);
    const rows = core.queue.rows([...first.queued, ...second.queued]);
    const ids = rows.map((row) => row.id);
    await until(
      () => core.queue.rows(ids),
      (all) =>
        all.every(
          (row) =>
            row.state === 'anchored' && row.timestampState === 'confirmed' && row.timestampProblem === null,
        ),
      'the batches’ tokens and their validation data',
    );
    // Nothing is due while the certificate has more than the margin left.
    expect(await core.records.due()).toEqual([]);
    // The command line renews 90 days ahead by default: for it both records are due, and it says why.
    const dry = await runCli(ws.dataDir, ['renew', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^2 evidence records \(documents: 3\) need renewal:$/m);
    expect(dry.stdout).toMatch(
      /^ {2}2 documents timestamped on .+ by short-signer: the authority’s certificate expires on .+$/m,
    );
    const unrenewed = recordOf(ids[0]!);

    // Forty-five minutes later, fifteen before it ends: both records are due, and one request renews both.
    clockAhead = 45 * MINUTE;
    expect((await core.records.due()).map((record) => record.documents).sort()).toEqual([1, 2]);
    tsa.behaviour = 'good';
    const asked = tsa.requests;
    const renewed = await core.renewRecords();
    expect(renewed.opened).toHaveLength(1);
    const stamps = (id: number) => {
      const read = readEvidenceRecord(recordOf(id));
      return 'chains' in read ? read.chains[0]!.stamps : [];
    };
    await until(
      () => ids.map((id) => stamps(id).length),
      (counts) => counts.every((n) => n === 2),
      'the renewal',
    );
    expect(tsa.requests - asked).toBe(1);
    // Asked again: nothing is renewed twice.
    expect((await core.renewRecords()).opened).toEqual([]);
    const again = await runCli(ws.dataDir, ['renew']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^Every evidence record holds; the next renewal is due on .+\.$/m);

    // The renewal's own validation data is collected, then carried inside its token in every record.
    await until(
      () => stamps(ids[2]!),
      ([, renewal]) => validationDataIn(renewal!.token).data.crl.length > 0,
      'the renewal’s validation data',
    );
    for (const row of rows) {
      const record = recordOf(row.id);
      const document = readFileSync(row.filePath);
      const ours = await checkRecord({ sha256: sha256(document) }, record, trust());
      expect(ours).toMatchObject({
        ok: true,
        facts: {
          first: { authority: 'short-signer' },
          renewed: [{ authority: 'tsa-signer' }],
          expired: false,
        },
      });
      const theirs = await castle.validate(record, document, tsa.rootFile, { revocation: true });
      expect(theirs.code, theirs.said).toBe(0);
    }
    // One changed byte in the document, or in the renewal's token, fails both verifiers.
    const [contract] = rows;
    const record = recordOf(contract!.id);
    const changed = readFileSync(contract!.filePath);
    changed[0] = (changed[0] as number) ^ 1;
    expect((await castle.validate(record, changed, tsa.rootFile)).code).toBe(1);
    const read = readEvidenceRecord(record);
    if (!('chains' in read)) throw new Error('unreadable');
    const renewal = read.chains[0]!.stamps[1]!.token;
    const tampered = Buffer.from(record);
    const at = tampered.indexOf(Buffer.from(renewal)) + Math.floor(renewal.length / 3);
    tampered[at] = (tampered[at] as number) ^ 1;
    const document = readFileSync(contract!.filePath);
    expect((await checkRecord({ sha256: sha256(document) }, tampered, trust())).ok).toBe(false);
    expect((await castle.validate(tampered, document, tsa.rootFile)).code).toBe(1);

    // The command line says what the record proves, renewal included.
    const receiptPath = join(ws.dir, 'contract.receipt.json');
    writeFileSync(receiptPath, JSON.stringify(core.exports.receipt(contract!.id)));
    const verified = await runCli(ws.dataDir, ['verify', contract!.filePath, '--receipt', receiptPath]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(
      /Evidence record \(RFC 4998\): Proves the time above; renewed once, on \d{4}-\d\d-\d\d \d\d:\d\d UTC by tsa-signer; holds until \d{4}-/,
    );

    // An edited copy of the renewal's time in the receipt is refused, naming the field.
    const edited = core.exports.receipt(contract!.id);
    edited.timestamp!.renewals![0]!.gen_time = '2020-01-01T00:00:00.000Z';
    writeFileSync(receiptPath, JSON.stringify(edited));
    const refused = await verifiedAs(contract!.filePath, receiptPath);
    expect(refused).toMatchObject({
      verdict: 'receipt_invalid',
      check: 'copy',
      field: 'timestamp.renewals',
    });

    // The custody register records the renewal, once for each document it renewed.
    const register = join(ws.dir, 'register.csv');
    const { eventsFile } = await core.exports.exportRegister({ ids }, register);
    const events = readFileSync(eventsFile!, 'utf8');
    expect(
      events.match(/evidence record renewed \(RFC 4998\): a timestamp by tsa-signer covers the one before/g),
    ).toHaveLength(3);

    // The certificate names the last renewal.
    const pdf = join(ws.dir, 'contract.certificate.pdf');
    await core.exports.saveCertificate(contract!.id, pdf);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-']).toString();
    expect(text).toMatch(
      /Evidence record \(RFC 4998\)\s+Renewed once, on[\s\S]{0,200}?\w+ \d+, \d{4} at [\d:]+ [AP]M UTC[\s\S]{0,300}?by tsa-signer/,
    );
    // A picture to look at, as a paralegal would (test-results/pdf).
    mkdirSync(PDF_PICTURES, { recursive: true });
    execFileSync('pdftoppm', [
      '-r',
      '80',
      '-png',
      '-singlefile',
      pdf,
      join(PDF_PICTURES, 'certificate-renewed'),
    ]);

    // IT retires EC keys under 384 bits: a record timestamped since with such a key is due at once,
    // and the renewed ones rest on one too (their renewal's): they need a stronger authority.
    const memo = (await core.certify(ws.files({ 'memo.pdf': 'the memo' }), METADATA)).queued;
    await until(
      () => core.queue.rows(memo),
      (memoRows) =>
        memoRows.every((row) => row.timestampState === 'confirmed' && row.timestampProblem === null),
      'the memo’s token',
    );
    const retiring = await runCliWith(ws.dataDir, ['renew', '--dry-run'], undefined, {
      EVIDENCE_DESK_RETIRED_ALGORITHMS: 'sha1, ec<384',
    });
    expect(retiring.stdout).toMatch(/^3 evidence records \(documents: 4\) need renewal:$/m);
    expect(retiring.stdout).toMatch(
      /^ {2}1 document timestamped on .+ by tsa-signer: it rests on an EC key of 256 bits, which is retired$/m,
    );
    expect(retiring.stdout).toMatch(
      /^ {2}2 documents last renewed on .+ by tsa-signer: that renewal rests on an EC key of 256 bits too, which is retired; renewing it needs an authority that signs with something stronger$/m,
    );
    // Without IT's list, P-256 is not retired: nothing is due.
    expect(await core.records.due()).toEqual([]);

    // Two hours on, the record kept from before the renewal has outlived its certificate: needs attention, not valid.
    const later = new Date(Date.now() + 120 * MINUTE);
    const stale = await checkRecord({ sha256: sha256(document) }, unrenewed, trust(), later);
    if (!stale.ok) throw new Error(stale.why);
    expect(stale.facts.expired).toBe(true);
    expect(
      plainEnglish(
        recordSaid({
          firstTime: stale.facts.first.genTime.toISOString(),
          firstAuthority: stale.facts.first.authority,
          lastRenewal: null,
          renewals: 0,
          holdsUntil: stale.facts.holdsUntil.toISOString(),
          expired: stale.facts.expired,
        }),
      ),
    ).toMatch(
      /^Needs attention: not renewed in time \(the certificate of its newest timestamp expired on \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/,
    );
    const current = await checkRecord({ sha256: sha256(document) }, record, trust(), later);
    expect(current).toMatchObject({ ok: true, facts: { expired: false } });

    // Years on, renewed again: an edited copy of the first of two renewals is refused too.
    clockAhead = 1825 * 24 * 60 * MINUTE - 20 * MINUTE;
    expect((await core.renewRecords()).opened).toHaveLength(1);
    await until(
      () => stamps(contract!.id).length,
      (count) => count === 3,
      'the second renewal',
    );
    const twice = core.exports.receipt(contract!.id);
    expect(twice.timestamp!.renewals).toHaveLength(2);
    twice.timestamp!.renewals![0]!.authority = 'another authority';
    writeFileSync(receiptPath, JSON.stringify(twice));
    expect(await verifiedAs(contract!.filePath, receiptPath)).toMatchObject({
      check: 'copy',
      field: 'timestamp.renewals',
    });
  }, 90_000);
  it('renews records to SHA-512 from the documents themselves once IT retires SHA-256: found where certified or in a folder given, the missing listed by matter; Bouncy Castle checks each record after', async () => {
    const rehashWs = workspace('evidence-rehash-');
    const retired = { EVIDENCE_DESK_RETIRED_ALGORITHMS: 'md5, sha1, sha256' };
    try {
      // The keychain the command line reads, under a profile id no other test process uses.
      const setup = await openCore(rehashWs.dataDir, {
        secrets: new KeychainSecretStore(),
        timestampPacing: { timeoutMs: 10_000, firstRetryMs: 300, capMs: 2000, strayAfterMs: 60_000 },
      });
      await useSandboxProfile(setup, sandbox, `rehash-${process.pid}`, {
        tsa: { url: tsa.url, trustedCertificates: tsa.rootPem },
      });
      tsa.behaviour = 'good';
      const files = rehashWs.files({
        'deed.pdf': 'the deed',
        'plan.pdf': 'the plan',
        'note.txt': 'the note',
      });
      const rows = setup.queue.rows(
        (await setup.certify(files, { ...METADATA, matter: 'Smith v Jones' })).queued,
      );
      const ids = rows.map((row) => row.id);
      await until(
        () => setup.queue.rows(ids),
        (all) =>
          all.every(
            (row) =>
              row.state === 'anchored' && row.timestampState === 'confirmed' && row.timestampProblem === null,
          ),
        'the certifications, the batch’s token and its validation data',
      );
      await setup.close();
      // The plan was moved and renamed since; the note is gone.
      const [deed, plan, note] = rows as [
        (typeof rows)[number],
        (typeof rows)[number],
        (typeof rows)[number],
      ];
      const elsewhere = join(rehashWs.dir, 'moved');
      mkdirSync(join(elsewhere, 'final'), { recursive: true });
      const planNow = join(elsewhere, 'final', 'Plan (signed).pdf');
      renameSync(plan.filePath, planNow);
      rmSync(note.filePath);

      // An authority that signs with SHA-512; IT retires SHA-256.
      tsa.signerDigest = 'sha512';
      const dry = await runCliWith(rehashWs.dataDir, ['renew', '--dry-run'], undefined, retired);
      expect(dry.stdout).toMatch(/^3 documents’ evidence records rest on SHA-256, which IT has retired/m);
      const asked = tsa.requests;
      const renewed = await runCliWith(
        rehashWs.dataDir,
        ['renew', '--documents', elsewhere],
        undefined,
        retired,
      );
      expect(renewed.code, renewed.stdout + renewed.stderr).toBe(3);
      expect(renewed.stdout).toMatch(
        /^Found 2 documents again, to renew their evidence records to SHA-512:$/m,
      );
      expect(renewed.stdout).toMatch(
        /^Renewed 2 evidence records \(documents: 2\) with one timestamp by tsa-signer/m,
      );
      expect(renewed.stdout).toMatch(
        /^1 document was not found, so its evidence record is not renewed to SHA-512/m,
      );
      expect(renewed.stdout).toMatch(/^ {2}Matter Smith v Jones: note\.txt$/m);
      expect(tsa.requests - asked).toBe(1);

      const check = await openCore(rehashWs.dataDir, { sync: false });
      try {
        const chainsOf = (id: number) => {
          const read = readEvidenceRecord(Buffer.from(check.exports.receipt(id).evidence_record!, 'base64'));
          return 'chains' in read ? read.chains : [];
        };
        expect(chainsOf(note.id)).toHaveLength(1);
        for (const [row, path] of [
          [deed, deed.filePath],
          [plan, planNow],
        ] as const) {
          const chains = chainsOf(row.id);
          expect(chains).toHaveLength(2);
          expect(imprintHashOf(chains[1]!.stamps[0]!.token)).toBe('sha512');
          const record = Buffer.from(check.exports.receipt(row.id).evidence_record!, 'base64');
          const document = readFileSync(path);
          const theirs = await castle.validate(record, document, tsa.rootFile, { revocation: true });
          expect(theirs.code, theirs.said).toBe(0);
          const changed = Buffer.from(document);
          changed[0] = (changed[0] as number) ^ 1;
          expect((await castle.validate(record, changed, tsa.rootFile)).code).toBe(1);
          const ours = await checkRecord(
            { sha256: sha256(document), sha512: sha512(document) },
            record,
            trust(),
          );
          expect(ours).toMatchObject({ ok: true, facts: { renewed: [{ authority: 'tsa-signer' }] } });
          expect(
            (await checkRecord({ sha256: sha256(document), sha512: sha512(changed) }, record, trust())).ok,
          ).toBe(false);
          // The SHA-512 chain on its own, as someone's .ers: tied to nothing without the document's
          // SHA-512, so refused, never "its timestamps hold".
          const alone = recordDer([chains[1]!.der], [imprintAlgorithmOf(chains[1]!.stamps[0]!.token)!]);
          expect((await checkRecord({ sha256: sha256(document) }, alone, trust())).ok).toBe(false);
        }
        // The command line checks the record with the document's SHA-512 and names the renewal.
        const receiptPath = join(rehashWs.dir, 'plan.receipt.json');
        writeFileSync(receiptPath, JSON.stringify(check.exports.receipt(plan.id)));
        const verified = await runCli(rehashWs.dataDir, ['verify', planNow, '--receipt', receiptPath]);
        expect(verified.code, verified.stdout + verified.stderr).toBe(0);
        expect(verified.stdout).toMatch(
          /Evidence record \(RFC 4998\): Proves the time above; renewed once, on .+ by tsa-signer/,
        );
      } finally {
        await check.close();
      }
      // Asked again: the two are not renewed twice; the note is still missing, and said so.
      const again = await runCliWith(rehashWs.dataDir, ['renew'], undefined, retired);
      expect(again.stdout).toMatch(/^ {2}Matter Smith v Jones: note\.txt$/m);
      expect(tsa.requests - asked).toBe(1);
    } finally {
      tsa.signerDigest = 'sha256';
      rehashWs.cleanup();
    }
  }, 90_000);
  it('gives certifications made before records one: v1 by a batch of the document, v2 and v3 by timestamping their receipt, each checked by Bouncy Castle and verify', async () => {
    const oldWs = workspace('evidence-old-receipts-');
    try {
      let old = await openCore(oldWs.dataDir, {
        timestampPacing: { timeoutMs: 10_000, firstRetryMs: 300, capMs: 2000, strayAfterMs: 60_000 },
      });
      await useSandboxProfile(old, sandbox, 'made-before', {
        tsa: { url: tsa.url, trustedCertificates: tsa.rootPem },
      });
      // Three certifications, as three versions before records left them: their authority refused then.
      tsa.behaviour = 'rejection';
      const eras = ['v1', 'v2', 'v3'] as const;
      const rows: Queued[] = [];
      for (const era of eras)
        rows.push(
          ...old.queue.rows(
            (await old.certify(oldWs.files({ [`${era} letter.txt`]: `the ${era} letter` }), METADATA)).queued,
          ),
        );
      const ids = rows.map((row) => row.id);
      await until(
        () => old.queue.rows(ids),
        (all) => all.every((row) => row.state === 'anchored' && row.timestampProblem !== null),
        'anchoring, and the refused timestamps',
      );
      await old.close();
      // v1 had no timestamp; v2 and v3 one over an RFC 6962 tree of their batch (v2 without validation data).
      const db = new Database(join(oldWs.dataDir, 'queue.sqlite'));
      const batchOf = (id: number) =>
        db.prepare('SELECT timestamp_batch_id FROM certifications WHERE id = ?').pluck().get(id) as number;
      const [v1, v2, v3] = rows as [Queued, Queued, Queued];
      const v1Batch = batchOf(v1.id);
      const v2Batch = batchOf(v2.id);
      db.prepare(
        'UPDATE certifications SET timestamp_batch_id = NULL, timestamp_path = NULL WHERE id = ?',
      ).run(v1.id);
      db.prepare('DELETE FROM timestamp_batches WHERE id = ?').run(v1Batch);
      for (const row of [v2, v3]) {
        const { root, paths } = batchTree([Buffer.from(row.assetHash, 'hex')]);
        db.prepare(
          `UPDATE timestamp_batches SET tree = 'rfc6962', root = ?, next_attempt_at = 0, problem = NULL WHERE id = ?`,
        ).run(Buffer.from(root).toString('hex'), batchOf(row.id));
        db.prepare('UPDATE certifications SET timestamp_path = ? WHERE id = ?').run(
          JSON.stringify(
            paths[0]!.map((step) => ({ side: step.side, hash: Buffer.from(step.hash).toString('hex') })),
          ),
          row.id,
        );
      }
      db.close();
      tsa.behaviour = 'good';
      // The one without a timestamp is batched at once (a stray, however recent).
      old = await openCore(oldWs.dataDir, {
        timestampPacing: { timeoutMs: 10_000, firstRetryMs: 300, capMs: 2000, strayAfterMs: 0 },
      });
      await until(
        () => old.queue.rows(ids),
        (all) => all.every((row) => row.timestampState === 'confirmed' && row.timestampProblem === null),
        'the old batches’ tokens, and a batch for the one that had none',
      );
      await old.close();
      const era2 = new Database(join(oldWs.dataDir, 'queue.sqlite'));
      era2
        .prepare('UPDATE timestamp_batches SET validation = NULL, validation_due_at = NULL WHERE id = ?')
        .run(v2Batch);
      era2.close();

      // One request timestamps the receipts of v2 and v3 (the app's daily look, or renew); asked again, nothing more.
      old = await openCore(oldWs.dataDir);
      await old.renewRecords();
      const receiptRequests = () => {
        const read = new Database(join(oldWs.dataDir, 'queue.sqlite'), { readonly: true });
        const found = read.prepare(`SELECT size, state FROM timestamp_batches WHERE new_chain = 1`).all();
        read.close();
        return found;
      };
      await until(
        receiptRequests,
        (found) => found.length === 1 && (found[0] as { state: string }).state === 'confirmed',
        'the receipts’ timestamp',
      );
      expect(receiptRequests()).toEqual([{ size: 2, state: 'confirmed' }]);
      await old.renewRecords();
      expect(receiptRequests()).toHaveLength(1);
      const kit = join(oldWs.dir, 'kit');
      await old.exports.exportEvidence({ ids }, { dir: kit });
      // The custody register records the timestamp over each old receipt, as a renewal of its evidence.
      const { eventsFile } = await old.exports.exportRegister({ ids }, join(oldWs.dir, 'register.csv'));
      expect(readFileSync(eventsFile!, 'utf8').match(/evidence record renewed \(RFC 4998\)/g)).toHaveLength(
        2,
      );
      await old.close();
      const receiptFile = (row: Queued) => join(kit, 'certifications', `${row.fileName}.receipt.json`);
      const recordFile = (row: Queued) => join(kit, 'certifications', `${row.fileName}.ers`);
      // In the kit's META-INF (EN 319 162-1), each record names what it covers: the document, or the receipt.
      const manifests = readdirSync(join(kit, 'META-INF'))
        .filter((name) => name.startsWith('ASiCEvidenceRecordManifest'))
        .map((name) => readFileSync(join(kit, 'META-INF', name), 'utf8'))
        .join('\n');
      expect(manifests).toContain('URI="v1%20letter.txt"');
      expect(manifests).toContain('URI="certifications/v2%20letter.txt.receipt.json"');
      expect(manifests).toContain('URI="certifications/v3%20letter.txt.receipt.json"');
      // v1's record is the document's own, from the batch made for it.
      const v1Receipt = JSON.parse(readFileSync(receiptFile(v1), 'utf8')) as { evidence_record: string };
      const v1Check = await castle.validate(
        Buffer.from(v1Receipt.evidence_record, 'base64'),
        readFileSync(v1.filePath),
        tsa.rootFile,
      );
      expect(v1Check.code, v1Check.said).toBe(0);
      for (const row of [v2, v3]) {
        // Its record's data object is its receipt, exactly as the kit holds it.
        const receiptBytes = readFileSync(receiptFile(row));
        const record = readFileSync(recordFile(row));
        const theirs = await castle.validate(record, receiptBytes, tsa.rootFile, { revocation: true });
        expect(theirs.code, theirs.said).toBe(0);
        const verified = await runCli(oldWs.dataDir, ['verify', row.filePath, '--receipt', receiptFile(row)]);
        expect(verified.code, verified.stdout + verified.stderr).toBe(0);
        expect(verified.stdout).toMatch(/Time confirmed by tsa-signer at /);
        expect(verified.stdout).toMatch(
          /Evidence record \(RFC 4998\): Keeps this receipt’s own timestamp checkable: the receipt, its token and validation data inside, was timestamped again on .+ by tsa-signer; holds until/,
        );
      }
      const v1Verified = await runCli(oldWs.dataDir, ['verify', v1.filePath, '--receipt', receiptFile(v1)]);
      expect(v1Verified.code, v1Verified.stdout).toBe(0);
      expect(v1Verified.stdout).toMatch(
        /Evidence record \(RFC 4998\): Proves the time above; not renewed yet/,
      );
      // One byte more in a receipt: its record no longer covers it, for both verifiers.
      const edited = `${readFileSync(receiptFile(v3), 'utf8')} `;
      writeFileSync(receiptFile(v3), edited);
      expect(
        (await castle.validate(readFileSync(recordFile(v3)), Buffer.from(edited), tsa.rootFile)).code,
      ).toBe(1);
      const refused = await runCli(oldWs.dataDir, [
        'verify',
        v3.filePath,
        '--receipt',
        receiptFile(v3),
        '--json',
      ]);
      expect(JSON.parse(refused.stdout)).toMatchObject({
        verdict: 'timestamp_invalid',
        check: 'record',
      });
    } finally {
      oldWs.cleanup();
    }
  }, 90_000);
  it('loses nothing and renews nothing twice when killed in the middle of renewing 10,000 documents’ records', async () => {
    const crashWs = workspace('evidence-renewal-crash-');
    try {
      // 10,000 documents in four drops, timestamped by the short-lived signer. Their service is
      // unreachable (the records need only the authority): nothing is sent, nothing waits for it.
      // The keychain the command line reads (not the tests' own service): the profile's secret is found there.
      const setup = await openCore(crashWs.dataDir, {
        secrets: new KeychainSecretStore(),
        timestampPacing: { timeoutMs: 10_000, firstRetryMs: 300, capMs: 2000, strayAfterMs: 60_000 },
      });
      await setup.profiles.save(
        {
          id: 'offline',
          kind: 'custom',
          baseUrl: 'http://127.0.0.1:9',
          tokenUrl: 'http://127.0.0.1:9/token',
          clientId: 'client',
          signRequests: false,
          tsa: { url: tsa.url, trustedCertificates: tsa.rootPem },
        },
        { client_secret: 'secret' },
      );
      await setup.profiles.use('offline');
      tsa.behaviour = 'short-lived';
      const ids: number[] = [];
      for (let drop = 0; drop < 4; drop++) {
        const files = crashWs.files(
          Object.fromEntries(
            Array.from({ length: 2_500 }, (_, i) => [
              `drop ${drop}/document ${i}.txt`,
              `drop ${drop}, document ${i}`,
            ]),
          ),
        );
        ids.push(...(await setup.certify(files, METADATA)).queued);
      }
      expect(ids).toHaveLength(10_000);
      await until(
        () => setup.queue.rows(ids.filter((_, i) => i % 2_500 === 0)),
        (rows) => rows.every((row) => row.timestampState === 'confirmed' && row.timestampProblem === null),
        'four tokens and their validation data',
      );
      await setup.close();

      // The command line renews them (due 90 days ahead by default); killed while the authority answers.
      tsa.behaviour = 'slow';
      const asked = tsa.requests;
      const child = spawn(process.execPath, [...CLI, 'renew', '--data-dir', crashWs.dataDir], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LC_ALL: 'C' },
      });
      let said = '';
      child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await until(
        () => tsa.requests,
        (requests) => requests > asked,
        'the renewal’s request',
      ).catch((error: Error) => {
        throw new Error(`${error.message}; renew said: ${said}`);
      });
      child.kill('SIGKILL');
      await exited;
      const db = new Database(join(crashWs.dataDir, 'queue.sqlite'), { readonly: true });
      const renewals = () =>
        db.prepare(`SELECT state, size FROM timestamp_batches WHERE kind = 'renewal'`).all();
      const stampsCount = () => db.prepare('SELECT COUNT(*) FROM archive_stamps').pluck().get();
      // One renewal, of all four records, waiting: opened whole, in one transaction.
      expect(renewals()).toEqual([{ state: 'waiting', size: 4 }]);
      expect(stampsCount()).toBe(4);

      // Started again: the waiting renewal is asked again, nothing is renewed twice.
      tsa.behaviour = 'good';
      const again = await runCli(crashWs.dataDir, ['renew']);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(renewals()).toEqual([{ state: 'confirmed', size: 4 }]);
      expect(stampsCount()).toBe(4);
      db.close();
      // The four records' one renewal carries every document's: every tenth document (a quarter of
      // each drop) has a record that verifies, renewal included.
      const check = await openCore(crashWs.dataDir, { sync: false });
      try {
        for (const id of ids.filter((_, at) => at % 10 === 0)) {
          const receipt = check.exports.receipt(id);
          const verdict = await checkRecord(
            { sha256: Buffer.from(receipt.file.sha256, 'hex') },
            Buffer.from(receipt.evidence_record!, 'base64'),
            trust(),
          );
          if (!verdict.ok || verdict.facts.renewed.length !== 1)
            throw new Error(`${receipt.file.name}: ${JSON.stringify(verdict)}`);
        }
      } finally {
        await check.close();
      }
    } finally {
      crashWs.cleanup();
    }
  }, 90_000);
});
