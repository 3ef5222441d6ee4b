import { execFileSync } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceCore } from '../../main/core';
import type { SetReport, SetVerdict } from '../../protocol/sets';
import { readLoadFile } from '../../main/sets/read-load-file';
import { readRegister } from '../../main/sets/read-register';
import { lookupIn } from '../../main/sets/open-reference';
import type { LocalCertifications } from '../../main/sets/open-reference';
import type { AnchoredFacts } from '../../main/store';
import { matchSet, setMatcher } from '../../verifier/sets/match-set';
import { entriesInMemory } from '../../verifier/sets/entries-in-memory';
import type { Reference, ReferenceEntry } from '../../verifier/sets/reference';
import { unsigned } from '../../verifier/sets/reference';
import { EntriesBuilder, openStore } from '../../main/store';
import Database from 'better-sqlite3';
import { METADATA, openCore, queuedRows, workspace } from '../support/core';
import type { TestWorkspace } from '../support/core';
import { runCli } from '../support/cli';
import { englishOf } from '../support/english';

// Whole sets of documents, on real folders, against each kind of reference this computer made:
// its register (CSV), its kit (receipts), a load file (DAT) in each encoding, and its own queue.
let ws: TestWorkspace;
let core: EvidenceCore;
let production: string;
let register: string;
let kit: string;

/** A PEM public key's SHA-256 fingerprint, as the kit's README has it computed with openssl. */
const fingerprintOfPem = (pem: string) =>
  createHash('sha256')
    .update(execFileSync('openssl', ['pkey', '-pubin', '-in', pem, '-outform', 'DER']))
    .digest('hex');
const PDF_PICTURES = join(process.cwd(), 'test-results', 'pdf');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const NFC = 'Geschäftsbericht.pdf';
const NFD = NFC.normalize('NFD');
const CERTIFIED = {
  'contract.pdf': 'the contract',
  'annex/annex 1.pdf': 'annex one',
  'annex/annex 2.pdf': 'annex two',
  [NFC]: 'the annual report',
  'letter.pdf': 'the letter',
};

const verdicts = (report: SetReport) =>
  Object.fromEntries([...report.results].map((result) => [result.name, result.verdict])) as Record<
    string,
    SetVerdict
  >;

/**
 * The same check with everything it holds (the reference's entries, the files waiting, the
 * report's lines) kept on disk, as for a production of 100,000, gives the same report.
 */
async function expectSameOnDisk(set: string, against: { path: string } | null, report: SetReport) {
  const onDisk = await core.sets.verifySet([set], against, undefined, 0);
  expect([...onDisk.results], JSON.stringify(against)).toEqual([...report.results]);
  expect(onDisk.summary).toEqual(report.summary);
  onDisk.results.close();
}

beforeAll(async () => {
  ws = workspace('evidence-sets-');
  core = await openCore(ws.dataDir);
  const paths = ws.files(CERTIFIED);
  const { queued } = await core.certify([join(ws.dir, 'docs')], METADATA);
  expect(queued).toHaveLength(paths.length);
  await core.sync.waitUntilSettled(queued, 30_000);
  register = join(ws.dir, 'register.csv');
  await core.exports.exportRegister({}, register);
  kit = join(ws.dir, 'kit');
  await core.exports.exportEvidence({}, { dir: kit, zip: join(ws.dir, 'kit.zip') });
  // The production as it went out: the certified folder, copied, then handled as productions are.
  production = join(ws.dir, 'production');
  execFileSync('cp', ['-r', join(ws.dir, 'docs'), production]);
}, 60_000);
afterAll(async () => {
  await core.close();
  ws.cleanup();
});

describe('verifying a set', () => {
  it('gives every document its verdict, and every certification without a document "missing"', async () => {
    const set = join(ws.dir, 'handled');
    execFileSync('cp', ['-r', production, set]);
    writeFileSync(join(set, 'contract.pdf'), 'the contract, edited after signing');
    renameSync(join(set, 'letter.pdf'), join(set, 'letter (final).pdf'));
    rmSync(join(set, 'annex', 'annex 2.pdf'));
    writeFileSync(join(set, 'cover note.pdf'), 'never certified');
    execFileSync('mkfifo', [join(set, 'pipe.pdf')]);
    // macOS writes names decomposed: the same name must match the register made from composed ones.
    renameSync(join(set, NFC), join(set, NFD));

    const report = await core.sets.verifySet([set], { path: register });
    expect(verdicts(report)).toEqual({
      'annex/annex 1.pdf': 'verified',
      [NFC]: 'verified',
      'contract.pdf': 'changed',
      'letter (final).pdf': 'renamed',
      'cover note.pdf': 'not_certified',
      'pipe.pdf': 'unreadable',
      'annex/annex 2.pdf': 'missing',
    });
    expect(report.summary).toMatchObject({ documents: 6, passed: false });
    const verified = [...report.results].find((result) => result.name === 'annex/annex 1.pdf');
    // Verified with the certification it matched and the time its log signed (not the register's clock).
    expect(verified?.entry?.certification).toMatchObject({
      id: expect.stringMatching(/^cert_/),
      signedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(englishOf([...report.results].find((result) => result.name === 'pipe.pdf')?.note)).toMatch(
      /not a document/,
    );
    // Problems first (changed, missing, unreadable, not certified, renamed, then verified), names in
    // order within each; a large set keeps its report's lines on disk: read back, they are the same
    // lines in the same order, as often as they are read, and the report saved from them is the same file.
    const onDisk = await core.sets.verifySet([set], { path: register }, undefined, 1);
    const lines = [...report.results];
    expect(lines.map((line) => line.name)).toEqual([
      'contract.pdf',
      'annex/annex 2.pdf',
      'pipe.pdf',
      'cover note.pdf',
      'letter (final).pdf',
      NFC,
      'annex/annex 1.pdf',
    ]);
    expect([...onDisk.results]).toEqual(lines);
    expect([...onDisk.results]).toEqual(lines);
    expect(onDisk.summary).toEqual(report.summary);
    const [inMemoryCsv, onDiskCsv] = [join(ws.dir, 'in-memory.csv'), join(ws.dir, 'on-disk.csv')];
    await core.sets.saveReport(report, inMemoryCsv);
    await core.sets.saveReport(onDisk, onDiskCsv);
    expect(readFileSync(onDiskCsv, 'utf8')).toBe(readFileSync(inMemoryCsv, 'utf8'));
    onDisk.results.close();
    // Closed, it is not read as an empty report (which would save as one that looks complete).
    expect(() => [...onDisk.results]).toThrow(/closed/);

    // The command line names the certification a changed or missing document was certified as.
    const printed = (await runCli(ws.dataDir, ['verify', set, '--against', register])).stdout;
    expect(printed).toMatch(/^changed +contract\.pdf {2}certification cert_\S+, signed \d{4}-/m);
    expect(printed).toMatch(/^missing +annex\/annex 2\.pdf {2}certification cert_\S+, signed \d{4}-/m);

    // For scripts: the same report as JSON, its sentences in English, and exit 1.
    const asJson = await runCli(ws.dataDir, ['verify', set, '--against', register, '--json']);
    expect(asJson.code).toBe(1);
    const parsed = JSON.parse(asJson.stdout) as {
      summary: SetReport['summary'];
      results: { name: string; verdict: SetVerdict; note: string | null }[];
    };
    expect(parsed.summary).toEqual(report.summary);
    expect(parsed.results.map(({ name, verdict }) => [name, verdict])).toEqual(
      lines.map(({ name, verdict }) => [name, verdict]),
    );
    expect(parsed.results.find((result) => result.name === 'pipe.pdf')?.note).toMatch(/not a document/);

    // The untouched production passes, against the register, the kit and this computer.
    // Each made on this sandbox: each says DEMO.
    for (const against of [{ path: register }, { path: kit }, { path: join(ws.dir, 'kit.zip') }, null]) {
      const clean = await core.sets.verifySet([production], against);
      expect(clean.summary, JSON.stringify(against)).toMatchObject({
        passed: true,
        documents: 5,
        demo: true,
      });
      await expectSameOnDisk(production, against, clean);
    }
  }, 60_000);

  it('is refused with exit 1 when nothing is checked, and writes its report from the command line', async () => {
    const empty = join(ws.dir, 'empty');
    mkdirSync(empty);
    const none = await core.sets.verifySet([empty], { path: register });
    expect(none.summary).toMatchObject({ documents: 0, passed: false });

    // The command is in the help IT reads (it was not).
    expect((await runCli(ws.dataDir, ['--help'])).stdout).toContain('verify PATH... [--against KIT');

    const report = join(ws.dir, 'report.csv');
    const run = await runCli(ws.dataDir, ['verify', production, '--against', register, '--report', report]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^PASSED: everything in the reference was found and verified\.$/m);
    const csv = readFileSync(report, 'utf8');
    expect(csv.startsWith('\ufeffVerdict,Document,Path,SHA-256')).toBe(true);
    expect(csv.split('\r\n').filter((line) => line.startsWith('verified,'))).toHaveLength(5);
    // The PDF report: the summary first, then a line per document; sealed like the certificates.
    const pdf = join(ws.dir, 'report.pdf');
    expect(
      (await runCli(ws.dataDir, ['verify', production, '--against', register, '--report', pdf])).code,
    ).toBe(0);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toMatch(
      /Verification of a Set of Documents[\s\S]*5 documents: 5 verified, 0 changed[\s\S]*PASSED[\s\S]*annex\/annex 1\.pdf/,
    );
    expect(readFileSync(pdf).includes('/DocTimeStamp')).toBe(true);
    const nothing = await runCli(ws.dataDir, ['verify', empty, '--against', register]);
    expect(nothing.code).toBe(1);
    expect(nothing.stdout).toMatch(/NOT PASSED: nothing was checked/);
  }, 60_000);

  it('reads a load file in UTF-8, UTF-16 or Windows-1252, with MD5 and SHA-256, and is not confused by itself', async () => {
    const header = ['BEGDOC', 'NATIVEPATH', 'MD5HASH', 'SHA256'];
    const lines = Object.entries(CERTIFIED).map(([name, content], index) => [
      `ABC${String(index + 1).padStart(6, '0')}`,
      `\\${name.replace(/\//g, '\\')}`,
      md5(content),
      index % 2 ? sha256(content) : '',
    ]);
    const dat = [header, ...lines]
      .map((fields) => fields.map((field) => `þ${field}þ`).join('\u0014'))
      .join('\r\n');
    const encodings: [string, Buffer][] = [
      ['utf-8', Buffer.from(dat, 'utf8')],
      ['utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(dat, 'utf16le')])],
      ['windows-1252', latin1(dat)],
    ];
    for (const [encoding, bytes] of encodings) {
      // The manifest lies inside the folder it lists: it is the reference, not a document.
      const loadFile = join(production, `production.${encoding}.dat`);
      writeFileSync(loadFile, bytes);
      const report = await core.sets.verifySet([production], { path: loadFile });
      expect(report.summary, encoding).toMatchObject({ passed: true, documents: 5, demo: false });
      expect(verdicts(report)[NFC], encoding).toBe('verified');
      if (encoding === 'utf-8') await expectSameOnDisk(production, { path: loadFile }, report);
      rmSync(loadFile);
    }

    // A malformed line is refused with where and why, and nothing is checked.
    const broken = join(ws.dir, 'broken.dat');
    writeFileSync(broken, `${dat}\r\nþABC9þ\u0014þonly two fieldsþ`);
    const refused = await runCli(ws.dataDir, ['verify', production, '--against', broken]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/broken\.dat, line 7: it has 2 fields where the first line names 4/);
    // The command was right; the file it named was refused: no pointer to the command's usage.
    expect(refused.stderr).not.toContain('--help');
  }, 60_000);

  it('matches names that differ only in case when the reference was made on Windows, and says so', async () => {
    const windows = join(ws.dir, 'windows-register.csv');
    const [head, ...rows] = readFileSync(register, 'utf8').split('\r\n');
    writeFileSync(
      windows,
      [
        head,
        ...rows.map((row) =>
          row.replace(join(ws.dir, 'docs'), 'C:\\Matters\\Acme\\Production').replace(/\/(?=[^,]*,)/g, '\\'),
        ),
      ]
        .join('\r\n')
        .replace('Production\\contract.pdf', 'Production\\CONTRACT.PDF'),
    );
    const report = await core.sets.verifySet([production], { path: windows });
    const contract = [...report.results].find((result) => result.name === 'contract.pdf');
    expect(contract?.verdict).toBe('verified');
    expect(englishOf(contract?.note)).toMatch(/only the case differs/);
    await expectSameOnDisk(production, { path: windows }, report);
  }, 60_000);

  it('reads the register after Excel saved it on a German computer: semicolons, Windows-1252, no byte-order mark', async () => {
    const records = parse(readFileSync(register), { bom: true }) as string[][];
    const excel = join(ws.dir, 'register-from-excel.csv');
    const text = `${records.map((cells) => cells.map((cell) => (/[;"\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(';')).join('\r\n')}\r\n`;
    // Every character here is in Latin-1, which Windows-1252 writes byte for byte (ä is 0xE4).
    writeFileSync(excel, latin1(text));
    expect(readFileSync(excel).includes(Buffer.from(NFC))).toBe(false);
    const report = await core.sets.verifySet([production], { path: excel });
    expect(verdicts(report)[NFC]).toBe('verified');
    expect(report.summary).toMatchObject({ documents: 5, passed: true });
  }, 60_000);

  it('reads a register whose names hold commas and quotes, and refuses a line of the wrong width with its number', async () => {
    // Such a name is quoted in the CSV: read by the general parser, not the fast split.
    const set = join(ws.dir, 'quoted-set');
    execFileSync('cp', ['-r', production, set]);
    const name = 'memo, "draft".pdf';
    writeFileSync(join(set, name), 'the memo');
    const [head = '', ...rows] = readFileSync(register, 'utf8').replace(/\r\n$/, '').split('\r\n');
    const row = (cells: Record<string, string>) =>
      head
        .replace(/^\ufeff/, '')
        .split(',')
        .map((column) => cells[column] ?? '')
        .join(',');
    const quoted = row({
      Path: `"${join(ws.dir, 'docs', name).replace(/"/g, '""')}"`,
      'SHA-256': sha256('the memo'),
      State: 'anchored',
    });
    const withQuotes = join(ws.dir, 'quoted-register.csv');
    writeFileSync(withQuotes, [head, ...rows, quoted, ''].join('\r\n'));
    const report = await core.sets.verifySet([set], { path: withQuotes });
    expect(verdicts(report)[name]).toBe('verified');
    expect(report.summary.passed).toBe(true);

    // A line cut short, without a quote anywhere: refused, with where.
    const broken = join(ws.dir, 'broken-register.csv');
    writeFileSync(broken, [head, ...rows, 'cut,short', ''].join('\r\n'));
    await expect(core.sets.verifySet([set], { path: broken })).rejects.toMatchObject({
      code: 'invalid_reference',
      message: expect.stringContaining(`broken-register.csv, line ${rows.length + 2}`),
    });
  }, 60_000);

  it('matches a reference kept on disk as one kept in memory: its entries of the same content found when asked, its unmatched read back in order', async () => {
    const entryOf = (i: number): ReferenceEntry => ({
      name: `folder/document-${i}.pdf`,
      writtenAs: `folder/document-${i}.pdf`,
      digests: { sha256: sha256(`${i}`) },
      certification: null,
      where: `line ${i + 2}`,
    });
    const builder = new EntriesBuilder(0);
    for (let i = 0; i < 3000; i++) builder.add(entryOf(i));
    const onDisk: Reference = {
      kind: 'register',
      source: null,
      entries: await builder.seal({ fromWindows: false }, () => undefined),
      problems: [],
      digests: [],
      ...unsigned(),
    };
    const inMemory: Reference = {
      ...onDisk,
      entries: await entriesInMemory(
        Array.from({ length: 3000 }, (_, i) => entryOf(i)),
        false,
      ),
    };
    const matchedRun = Array.from({ length: 500 }, (_, i) => 1000 + i).filter((i) => i !== 1250);
    const documents = [
      // Where the reference has it; its name with another entry's content; its content under a new name.
      { name: 'folder/document-3.pdf', path: '/a', digests: { sha256: sha256('3') } },
      { name: 'folder/document-5.pdf', path: '/b', digests: { sha256: sha256('6') } },
      { name: 'folder/moved.pdf', path: '/c', digests: { sha256: sha256('8') } },
      // Every entry from 1,000 to 1,499 but 1,250 matched: runs of unmatched longer than a page.
      ...matchedRun.map((i) => ({
        name: `folder/document-${i}.pdf`,
        path: `/${i}`,
        digests: { sha256: sha256(`${i}`) },
      })),
    ];
    const [fromDisk, fromMemory] = [matchSet(documents, onDisk), matchSet(documents, inMemory)];
    expect(fromDisk).toEqual(fromMemory);
    expect(fromDisk.slice(0, 3).map((result) => result.verdict)).toEqual(['verified', 'changed', 'renamed']);
    const missing = fromDisk
      .filter((result) => result.verdict === 'missing')
      .map((result) => result.entry?.where);
    const matched = new Set([3, 5, 8, ...matchedRun]);
    const unmatched = Array.from({ length: 3000 }, (_, i) => i).filter((i) => !matched.has(i));
    expect(missing).toEqual(unmatched.map((i) => `line ${i + 2}`));
    onDisk.entries.close();
  });

  it('gives the event loop turns while it reads a large register or load file (the window and progress stay live)', async () => {
    const [header = [], template = []] = parse(readFileSync(register), { bom: true }) as string[][];
    const quoted = (cell: string) => (/[,"\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
    const line = (path: string, hash: string) =>
      template
        .map((cell, column) =>
          header[column] === 'Path' ? path : header[column] === 'SHA-256' ? hash : cell,
        )
        .map(quoted)
        .join(',');
    const large = join(ws.dir, 'large-register.csv');
    const lines = Array.from({ length: 50_000 }, (_, i) =>
      line(`/elsewhere/filler ${i}.pdf`, sha256(`${i}`)),
    );
    writeFileSync(large, [header.map(quoted).join(','), ...lines, ''].join('\r\n'));
    // The same documents in a Concordance load file.
    const dat = join(ws.dir, 'large.dat');
    const field = (value: string) => `\u00fe${value}\u00fe`;
    const datLines = Array.from({ length: 50_000 }, (_, i) =>
      [`ABC${i}`, `\\elsewhere\\filler ${i}.pdf`, sha256(`${i}`)].map(field).join('\u0014'),
    );
    writeFileSync(
      dat,
      [['BEGBATES', 'NATIVEPATH', 'SHA256HASH'].map(field).join('\u0014'), ...datLines].join('\r\n'),
    );
    for (const read of [
      // Kept in memory (indexed with turns), and on disk (as a reference this large is).
      () =>
        readRegister(
          large,
          async () => () => null,
          () => new EntriesBuilder(Infinity),
        ),
      () => readRegister(large, async () => () => null),
      () => readLoadFile(dat),
    ]) {
      const { value: reference, turns } = await turnsDuring(read);
      expect(reference.entries.size).toBe(50_000);
      // Read in one go, the 50,000 lines hold the thread until the end: no timer fires.
      expect(turns).toBeGreaterThan(5);
      const seventh = [...reference.entries.unmatched(new Uint8Array(50_000))][7]!;
      expect(
        setMatcher(reference).match({ name: seventh.name, path: '/x', digests: { sha256: sha256('7') } }),
      ).toMatchObject({ verdict: 'verified' });
      reference.entries.close();
    }
  }, 60_000);

  it("gives the event loop turns while it reads the times signed for this computer's certifications", async () => {
    // 20,000 certifications anchored here (written directly: certifying them would take minutes).
    const file = join(ws.dir, 'many-anchored.sqlite');
    const made = openStore(file);
    made.certifications.intake.enqueue(queuedRows(20_000, (i) => sha256(`${i}`)));
    made.close();
    const raw = new Database(file);
    // The counts by state too, as the store keeps them when it writes a change of state.
    raw.exec(`UPDATE certifications SET state = 'anchored', service_id = 'cert_' || id;
      UPDATE state_counts SET state = 'anchored';
      INSERT INTO logged_times SELECT id, 1, '2026-11-02T09:00:00.000Z', '2026-11-02T09:00:01.000Z' FROM certifications`);
    raw.close();
    const store = openStore(file);
    try {
      // This computer's certifications as the lookup reads them, counting the rows it is given.
      let rowsRead = 0;
      const counted = (rows: AnchoredFacts[]) => ((rowsRead += rows.length), rows);
      const local: LocalCertifications = {
        anchored: (page) => counted(store.certifications.byContent.anchoredSignedFacts('embedded', page)),
        anchoredOf: (sha256s) =>
          counted(store.certifications.byContent.anchoredSignedFactsOf('embedded', sha256s)),
        anchoredCount: () => store.certifications.reads.counts('embedded').anchored,
        demo: false,
      };
      // A register of all 20,000: the last is found (every page was read), with its signed times.
      const every = Array.from({ length: 20_000 }, (_, i) => sha256(`${i}`));
      const { value: found, turns } = await turnsDuring(async () =>
        (await lookupIn(local, every))(sha256('19999'), null),
      );
      expect(found).toEqual({
        id: 'cert_20000',
        signedAt: '2026-11-02T09:00:00.000Z',
        anchoredAt: '2026-11-02T09:00:01.000Z',
      });
      // One query for all of them held the thread until the end: no timer fired.
      expect(turns).toBeGreaterThan(0);
      // A register of 3 lines is looked up by its 3 contents, not against all 20,000 (read whole before).
      rowsRead = 0;
      const few = await lookupIn(local, [sha256('7'), sha256('19999'), sha256('not here')]);
      expect(rowsRead).toBe(2);
      expect(few(sha256('7'), 'cert_8')).toMatchObject({
        id: 'cert_8',
        signedAt: '2026-11-02T09:00:00.000Z',
      });
      expect(few(sha256('not here'), null)).toBeNull();
    } finally {
      store.close();
    }
  }, 60_000);

  it("on the other side's computer: certified but not trusted until the kit's keys are, DEMO throughout, nothing left behind", async () => {
    // An empty data folder: it trusts nothing of our sandbox, and holds nothing.
    const theirs = join(ws.dir, 'other-side');
    const zip = join(ws.dir, 'kit.zip');
    const csv = join(ws.dir, 'their-report.csv');
    const pdf = join(ws.dir, 'their-report.pdf');
    const untrusted = await runCli(theirs, ['verify', production, '--against', kit, '--report', pdf]);
    expect(untrusted.code).toBe(1);
    // Each document is certified by the kit; what is missing is the reader's trust, said as such.
    expect(untrusted.stdout.match(/^certified, key not trusted {2}/gm)).toHaveLength(5);
    expect(untrusted.stdout).not.toMatch(/^not certified|nothing was checked|not used/m);
    const logKey = fingerprintOfPem(join(kit, 'log-key.pem'));
    const grouped = (hex: string) => hex.toUpperCase().match(/.{4}/g)?.join(' ');
    expect(untrusted.stdout).toContain(
      '5 documents: 0 verified, 5 certified under a key not trusted, 0 changed, 0 renamed, 0 not certified, 0 unreadable; 0 of the reference missing.',
    );
    expect(untrusted.stdout).toMatch(/^DEMO: certifications of this reference were made on a sandbox\./m);
    expect(untrusted.stdout).toMatch(
      /^NOT PASSED YET: 5 certified, but signed by a key you have not trusted\./m,
    );
    // The kit's seal, by an authority not trusted here either: named, not relied on.
    expect(untrusted.stdout).toMatch(
      /^The kit is sealed by an authority you have not trusted \(DEMO Evidence Sandbox Timestamping Authority\): its seal was not relied on\./m,
    );
    expect(untrusted.stdout).toContain(`log key                        ${grouped(logKey)}`);
    expect(untrusted.stdout).toMatch(/timestamping authority’s root {2}[0-9A-F]{4}( [0-9A-F]{4}){15}$/m);
    expect(untrusted.stdout).toContain(
      `If they match, run the same command again with --trust-kit (or --log-key ${join(kit, 'log-key.pem')} --tsa-root ${join(kit, 'tsa-root.pem')}).`,
    );
    // The report says the same, and DEMO, on paper and for Excel.
    const paper = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(paper).toMatch(/DEMO: certifications of this reference were made on a sandbox/);
    expect(paper).toContain('NOT PASSED YET: 5 certified, but signed by a key you have not trusted');
    expect(paper).toContain(`Log key: ${grouped(logKey)}`);
    expect(paper).toContain('DEMO — no legal weight');
    expect(paper).toContain('The kit is sealed by an authority you have not trusted');
    // Looked at, as the other side reads it.
    mkdirSync(PDF_PICTURES, { recursive: true });
    execFileSync('pdftoppm', [
      '-r',
      '90',
      '-png',
      '-singlefile',
      pdf,
      join(PDF_PICTURES, 'set-report-untrusted'),
    ]);
    await runCli(theirs, ['verify', production, '--against', zip, '--report', csv]);
    const rows = parse(readFileSync(csv, 'utf8').replace(/^\ufeff/, ''), { columns: true }) as Record<
      string,
      string
    >[];
    expect(
      rows.map((row) => [row.Verdict, row.DEMO, row['Signed by a key not trusted (fingerprint)']]),
    ).toEqual(
      Array(5).fill([
        'certified, key not trusted',
        'DEMO — made on a sandbox, no legal weight',
        expect.stringContaining(logKey),
      ]),
    );
    // Nothing was written there: no queue, no sandbox database (both were created before).
    expect(existsSync(theirs) ? readdirSync(theirs) : []).toEqual([]);

    // Trusting the kit's keys, as asked once their fingerprints were compared: the kit's folder or its zip.
    for (const against of [kit, zip]) {
      const trusting = await runCli(theirs, ['verify', production, '--against', against, '--trust-kit']);
      expect(trusting.stdout).toMatch(/^PASSED: everything in the reference was found and verified\.$/m);
      expect(trusting.stdout).toMatch(
        /^The kit is sealed: all 20 of its files are as they were on \d{4}-\d\d-\d\dT[\d:.]+Z \(RFC 3161 timestamp by DEMO Evidence Sandbox Timestamping Authority\)\.$/m,
      );
      // From the OCSP answer kept beside the seal's token, checked as of its time.
      expect(trusting.stdout).toMatch(
        /^The sealing authority’s standing then: In good standing at that time, according to signed status information \(OCSP, kept with the timestamp\)\.$/m,
      );
      expect(trusting.stdout).toContain('Trusting this kit’s keys, as asked (--trust-kit):');
      expect(trusting.stdout).toContain(grouped(logKey));
      expect(trusting.stdout).toMatch(/^DEMO: /m);
      expect(trusting.code).toBe(0);
    }
    // Or given its key files one by one, as the kit's README tells them.
    const given = await runCli(theirs, [
      'verify',
      production,
      '--against',
      kit,
      '--log-key',
      join(kit, 'log-key.pem'),
      '--tsa-root',
      join(kit, 'tsa-root.pem'),
    ]);
    expect(given.stdout).toMatch(/^PASSED: everything in the reference was found and verified\.$/m);
    expect(given.code).toBe(0);
    expect(existsSync(theirs) ? readdirSync(theirs) : []).toEqual([]);
  }, 60_000);

  it('names each file of a kit changed, added or removed since it was sealed, and fails; a forged manifest breaks the seal', async () => {
    const theirs = join(ws.dir, 'other-side-tampered');
    const tampered = join(ws.dir, 'tampered kit');
    cpSync(kit, tampered, { recursive: true });
    const register = readFileSync(join(tampered, 'register.pdf'));
    register[register.length - 30] = register[register.length - 30]! ^ 0x01;
    writeFileSync(join(tampered, 'register.pdf'), register);
    const [certificate] = readdirSync(join(tampered, 'certifications'))
      .filter((name) => name.endsWith('.certificate.pdf'))
      .sort();
    rmSync(join(tampered, 'certifications', certificate!));
    writeFileSync(
      join(tampered, 'certifications', 'Exhibit Z.pdf.certificate.pdf'),
      'a certificate slipped in',
    );
    const run = await runCli(theirs, ['verify', production, '--against', tampered, '--trust-kit']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^The kit was changed after it was sealed on .*: 3 of its files no longer match its seal\. Do not rely on them\.$/m,
    );
    expect(run.stdout).toContain(
      [
        '  changed since sealing:  register.pdf',
        '  added since sealing:    certifications/Exhibit Z.pdf.certificate.pdf',
        `  removed since sealing:  certifications/${certificate}`,
      ].join('\n'),
    );
    // Every document still verifies by its own receipt; the set does not pass while its kit was changed.
    expect(run.stdout).toMatch(/^NOT PASSED: see the lines above\.$/m);
    const json = JSON.parse(
      (await runCli(theirs, ['verify', production, '--against', tampered, '--trust-kit', '--json'])).stdout,
    ) as {
      reference: { seal: { state: string; changed: string[]; added: string[]; removed: string[] } };
    };
    expect(json.reference.seal).toMatchObject({
      state: 'sealed',
      changed: ['register.pdf'],
      added: ['certifications/Exhibit Z.pdf.certificate.pdf'],
      removed: [`certifications/${certificate}`],
    });
    // A manifest edited to match: its token no longer covers it.
    const manifest = join(tampered, 'META-INF', 'ASiCManifest.xml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('register.pdf', 'register.pdX'));
    const forged = await runCli(theirs, ['verify', production, '--against', tampered, '--trust-kit']);
    expect(forged.stdout).toMatch(
      /^The kit’s seal does not hold \(.+\): its files may have been changed since it was made\./m,
    );
    expect(forged.code).toBe(1);
    // A zip given one more file after sealing, as Python's zipfile appends it.
    const zip = join(ws.dir, 'tampered kit.zip');
    copyFileSync(join(ws.dir, 'kit.zip'), zip);
    execFileSync('python3', [
      '-c',
      'import sys, zipfile; zipfile.ZipFile(sys.argv[1], "a").writestr("extra.txt", "added")',
      zip,
    ]);
    const zipped = await runCli(theirs, ['verify', production, '--against', zip, '--trust-kit']);
    expect(zipped.stdout).toMatch(/^ {2}added since sealing: {4}extra\.txt$/m);
    expect(zipped.code).toBe(1);
  }, 60_000);

  it('reads files whose names are not UTF-8 when a large set keeps its waiting files on disk', async () => {
    const set = join(ws.dir, 'latin-1');
    execFileSync('cp', ['-r', production, set]);
    // A Latin-1 "café.pdf" from an old file server: opened only by its exact bytes.
    writeFileSync(
      Buffer.concat([Buffer.from(join(set, 'caf')), Buffer.from([0xe9]), Buffer.from('.pdf')]),
      'x',
    );
    const report = await core.sets.verifySet([set], { path: register }, undefined, 0);
    expect(Object.values(verdicts(report)).sort()).toEqual(['not_certified', ...Array(5).fill('verified')]);
    report.results.close();
  }, 60_000);

  it('refuses a kit zip that is not one, or is cut short, with where and why, and checks nothing', async () => {
    const notAZip = join(ws.dir, 'not-a-kit.zip');
    writeFileSync(notAZip, 'a letter, not a zip');
    const bytes = readFileSync(join(ws.dir, 'kit.zip'));
    const cutShort = join(ws.dir, 'cut-short.zip');
    writeFileSync(cutShort, bytes.subarray(0, bytes.length >> 1));
    for (const zip of [notAZip, cutShort])
      await expect(core.sets.verifySet([production], { path: zip })).rejects.toMatchObject({
        code: 'invalid_reference',
        message: expect.stringContaining(zip),
      });
  });

  it('reports a kit receipt that does not hold, and does not count its document as certified', async () => {
    const tampered = join(ws.dir, 'tampered-kit');
    execFileSync('cp', ['-r', kit, tampered]);
    const receiptPath = join(tampered, 'certifications', 'letter.pdf.receipt.json');
    const receipt = JSON.parse(readFileSync(receiptPath, 'utf8'));
    receipt.evidence.root_hash = `${receipt.evidence.root_hash[0] === 'a' ? 'b' : 'a'}${receipt.evidence.root_hash.slice(1)}`;
    writeFileSync(receiptPath, JSON.stringify(receipt));
    const report = await core.sets.verifySet([production], { path: tampered });
    expect(report.reference.problems.map(({ where, why }) => [where, englishOf(why)])).toEqual([
      [receiptPath, expect.stringMatching(/^The proof does not hold together/)],
    ]);
    expect(verdicts(report)['letter.pdf']).toBe('not_certified');
    expect(report.summary.passed).toBe(false);
    // The report PDF says why, in words, where the reference was not used.
    const pdf = join(ws.dir, 'tampered-report.pdf');
    await core.sets.saveReport(report, pdf);
    const text = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain(`In the reference, not used: ${receiptPath}: The proof does not hold together`);
  }, 60_000);
});

/** What `work` resolved to, and how often a 1 ms timer fired meanwhile (never, if it held the thread). */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  const ticking = setInterval(() => turns++, 1);
  try {
    return { value: await work(), turns };
  } finally {
    clearInterval(ticking);
  }
}

/** Windows-1252 bytes of text whose characters are all in Latin-1 (ä, þ, and the rest ASCII). */
function latin1(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}
