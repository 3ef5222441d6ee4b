import { execFileSync, spawnSync } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import { mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceCore } from '../../main/core';
import { METADATA, openCore, workspace } from '../support/core';
import type { TestWorkspace } from '../support/core';
import { runCliMeasured } from '../support/cli';
import { flateBomb, withAttachmentsUpdated, zipEntry, zipOf } from '../support/hostile';
import { PdfDocument } from '../../verifier/pdf/pdf-document';
import { opensslOcsp, pemFile } from '../support/openssl-ca';
import type { PdfDictionary, PdfRef } from '../../verifier/pdf/pdf-syntax';

// Everything Evidence Desk verifies comes from the other side, who may be hostile. One case per
// class of attack, each through the command line as the other side's files reach it, each held
// to a stated peak memory (CAP_MB, the process's resident set) and time (CAP_MS).
const CAP_MB = 256;
const CAP_MS = 20_000;

let ws: TestWorkspace;
let core: EvidenceCore;
let kit: string;
let register: string;
let production: string;
let theirs: string;
let trustKit: string[];
/** contract.pdf's certificate, saved on its own: sealed by its own document timestamp. */
let sealedContract: string;
// Names the other side chose: each would start a formula in Excel or LibreOffice.
const HOSTILE_NAMES = ["x\r=cmd|' \\C calc'!A0.pdf", 'y;=1+1.pdf', 'z\n@SUM(1+1).pdf', 'w,+2.pdf'];

beforeAll(async () => {
  ws = workspace('evidence-hostile-');
  core = await openCore(ws.dataDir);
  const files = ws.files({
    'contract.pdf': 'the contract',
    'letter.pdf': 'the letter',
    ...Object.fromEntries(HOSTILE_NAMES.map((name, i) => [name, `hostile ${i}`])),
  });
  const { queued } = await core.certify([join(ws.dir, 'docs')], METADATA);
  expect(queued).toHaveLength(files.length);
  await core.sync.waitUntilSettled(queued, 30_000);
  kit = join(ws.dir, 'kit');
  register = join(ws.dir, 'register.csv');
  sealedContract = join(ws.dir, 'contract.pdf.certificate.pdf');
  await core.exports.exportEvidence({}, { dir: kit });
  await core.exports.exportRegister({}, register);
  // A certificate as a lawyer emails it: saved on its own, sealed on its own (a kit's are sealed by the kit).
  const contract = core.queue.rows(queued).find((row) => row.fileName === 'contract.pdf')!;
  await core.exports.saveCertificate(contract.id, sealedContract);
  production = join(ws.dir, 'docs');
  // The other side's computer trusts nothing of ours but what the kit gives.
  theirs = join(ws.dir, 'their-data');
  trustKit = ['--log-key', join(kit, 'log-key.pem'), '--tsa-root', join(kit, 'tsa-root.pem')];
}, 90_000);
afterAll(async () => {
  await core?.close();
  ws?.cleanup();
});

const receiptOf = (name: string) => join(kit, 'certifications', `${name}.receipt.json`);

const document = (name: string) => join(production, name);
const verify = (args: string[]) => runCliMeasured(theirs, ['verify', ...args, ...trustKit]);

/** Every cell as Excel reads the file: a line break ends a row unless quoted, with either list separator. */
function expectNoFormula(csvPath: string) {
  const text = readFileSync(csvPath, 'utf8').replace(/^\uFEFF/, '');
  for (const delimiter of [',', ';']) {
    const rows = parse(text, {
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      relax_quotes: true,
    }) as string[][];
    const formulas = rows.flat().filter((cell) => /^[=+\-@]/.test(cell));
    expect(formulas, `${csvPath} read with "${delimiter}"`).toEqual([]);
  }
}

describe('what the other side sends', () => {
  it('never starts a formula in Excel: every CSV quotes line breaks and separators and defuses each cell start', async () => {
    expectNoFormula(register);
    const report = join(ws.dir, 'report.csv');
    const run = await runCliMeasured(ws.dataDir, [
      'verify',
      production,
      '--against',
      register,
      '--report',
      report,
    ]);
    expect(run.code).toBe(0);
    expectNoFormula(report);
    // The names still read back whole: the register verifies the production it lists.
    expect(run.stdout).toMatch(/^PASSED/m);
  }, 60_000);

  it('takes DEMO from what was signed: a sandbox receipt edited to say demo: false is refused, naming the field', async () => {
    const edited = join(ws.dir, 'not-demo.receipt.json');
    writeFileSync(
      edited,
      JSON.stringify({
        ...JSON.parse(readFileSync(receiptOf('contract.pdf'), 'utf8')),
        demo: false,
        notice: null,
      }),
    );
    const run = await verify([document('contract.pdf'), '--receipt', edited]);
    expect(run.stdout).toContain('The proof does not hold together');
    expect(run.stdout).toMatch(/what it says under “demo” is not what the service signed/);
    expect(run.code).toBe(1);
    // The genuine receipt says DEMO with its verdict.
    const genuine = await verify([document('contract.pdf'), '--receipt', receiptOf('contract.pdf')]);
    expect(genuine.stdout).toMatch(/^DEMO:/m);
    expect(genuine.code).toBe(0);
  }, 60_000);

  it('checks the receipt a PDF reader shows (the final revision), and says when the seal no longer holds', async () => {
    const updated = join(ws.dir, 'updated.certificate.pdf');
    const letter = readFileSync(receiptOf('letter.pdf'));
    writeFileSync(
      updated,
      withAttachmentsUpdated(readFileSync(sealedContract), [
        { name: 'letter.pdf.receipt.json', stream: letter },
      ]),
    );
    // What a PDF reader extracts: the letter's receipt, not the contract's.
    const detached = join(ws.dir, 'detached');
    mkdirSync(detached);
    execFileSync('pdfdetach', ['-saveall', '-o', detached, updated]);
    expect(readFileSync(join(detached, 'letter.pdf.receipt.json'))).toEqual(letter);
    const run = await verify([document('letter.pdf'), '--certificate', updated]);
    expect(run.stdout).toMatch(
      /^Verified against the receipt inside, but this certificate PDF was changed after it was sealed$/m,
    );
    expect(run.stdout).not.toContain('Verified: this is the certified document');
    expect(run.stdout).toContain('The certificate PDF was changed after it was sealed');
    expect(run.code).toBe(1);
    const sealed = await verify([document('contract.pdf'), '--certificate', sealedContract]);
    expect(sealed.stdout).toContain('The certificate PDF is sealed by DEMO');
    // Its authority's standing then, from what its issuer signed and the PDF keeps (its /DSS).
    expect(sealed.stdout).toMatch(
      /The sealing authority’s standing then: In good standing at that time, according to signed status information \(OCSP, kept with the timestamp\)\./,
    );
    expect(sealed.code).toBe(0);
    // Two receipts: which one the certificate is for is ambiguous.
    const two = join(ws.dir, 'two.certificate.pdf');
    writeFileSync(
      two,
      withAttachmentsUpdated(readFileSync(sealedContract), [
        { name: 'a.receipt.json', stream: readFileSync(receiptOf('contract.pdf')) },
        { name: 'b.receipt.json', stream: letter },
      ]),
    );
    const ambiguous = await verify([document('contract.pdf'), '--certificate', two]);
    expect(ambiguous.stdout).toMatch(/more than one receipt/);
    expect(ambiguous.code).toBe(1);
  }, 60_000);

  it('seals a certificate saved alone for the long term (PAdES B-LTA): OpenSSL checks both its seals and the OCSP answer in its DSS', async () => {
    const pdf = new PdfDocument(readFileSync(sealedContract));
    // The sealed certificate, then one update: the validation data, sealed with the rest.
    expect(pdf.revisions).toBe(2);
    const catalog = pdf.resolve(pdf.trailer.get('Root')) as PdfDictionary;
    const dss = pdf.resolve(catalog.get('DSS')) as PdfDictionary;
    const raw = () => Promise.reject(new Error('the DSS streams are stored as they are'));
    const streams = (key: string) =>
      Promise.all((pdf.resolve(dss.get(key)) as PdfRef[]).map((ref) => pdf.stream(ref, raw, 1 << 20)));
    const out = (name: string, bytes: Uint8Array) => {
      writeFileSync(join(ws.dir, name), bytes);
      return join(ws.dir, name);
    };
    const [signer, root] = (await streams('Certs')) as [Uint8Array, Uint8Array];
    const [ocsp] = (await streams('OCSPs')) as [Uint8Array];
    const rootFile = pemFile(ws.dir, 'root', root);
    const status = opensslOcsp(ws.dir, ocsp, rootFile, pemFile(ws.dir, 'signer', signer));
    expect(status).toMatch(/signer\.pem: good/);
    expect(status).toContain('Response verify OK');

    // Both document timestamps, each over its byte range, checked by OpenSSL against the same root.
    const form = pdf.resolve(catalog.get('AcroForm')) as PdfDictionary;
    const seals = (pdf.resolve(form.get('Fields')) as PdfRef[])
      .map((field) => pdf.resolve((pdf.resolve(field) as PdfDictionary).get('V')) as PdfDictionary)
      .map((signature) => {
        const [, first, second, secondLength] = pdf.resolve(signature.get('ByteRange')) as number[];
        const bytes = pdf.bytes;
        const token = pdf.resolve(signature.get('Contents')) as Uint8Array;
        const signed = Buffer.concat([
          bytes.subarray(0, first),
          bytes.subarray(second!, second! + secondLength!),
        ]);
        const verified = spawnSync(
          'openssl',
          ['ts', '-verify', '-data', out('signed.bin', signed)].concat([
            '-in',
            out('seal.tst', token.subarray(0, 4 + ((token[2]! << 8) | token[3]!))),
            '-token_in',
            '-CAfile',
            rootFile,
          ]),
          { encoding: 'utf8' },
        );
        return { verified: verified.stdout, wholeFile: second! + secondLength! === bytes.length };
      });
    expect(seals).toEqual([
      { verified: expect.stringContaining('Verification: OK'), wholeFile: false },
      { verified: expect.stringContaining('Verification: OK'), wholeFile: true },
    ]);
    // Our own verifier reads the last seal, over the whole file, as every PDF reader does.
    const run = await verify([document('contract.pdf'), '--certificate', sealedContract]);
    expect(run.stdout).toContain('The certificate PDF is sealed by DEMO');
    expect(run.code).toBe(0);
  });

  it('refuses a PDF whose attachment is a flate bomb, and reads one full of attachment markers in linear time', async () => {
    const bomb = join(ws.dir, 'bomb.certificate.pdf');
    writeFileSync(
      bomb,
      withAttachmentsUpdated(readFileSync(sealedContract), [
        { name: 'r.receipt.json', stream: flateBomb(64), filter: 'FlateDecode' },
      ]),
    );
    const refused = await verify([document('contract.pdf'), '--certificate', bomb]);
    expect(refused.stdout).toMatch(/a receipt is read only up to 1 MiB; this one is larger/);
    expect(refused.code).toBe(2);
    expect(refused.peakMb).toBeLessThan(CAP_MB);
    const markers = join(ws.dir, 'markers.certificate.pdf');
    writeFileSync(
      markers,
      Buffer.concat([
        readFileSync(sealedContract),
        Buffer.from('<< /Type /EmbeddedFile >>\n'.repeat(60_000)),
        Buffer.from(readFileSync(sealedContract).toString('latin1').slice(-60), 'latin1'),
      ]),
    );
    const marked = await verify([document('contract.pdf'), '--certificate', markers]);
    expect(marked.ms).toBeLessThan(CAP_MS);
    expect(marked.stdout).toContain('Verified against the receipt inside');
    expect(marked.stdout).toContain('changed after it was sealed');
  }, 120_000);

  it('refuses receipts past their bounds before any other work: a huge array, a long chain', async () => {
    const genuine = JSON.parse(readFileSync(receiptOf('contract.pdf'), 'utf8'));
    const values = join(ws.dir, 'values.receipt.json');
    writeFileSync(
      values,
      JSON.stringify({ ...genuine, timestamp: { ...genuine.timestamp, path: Array(300_000).fill({}) } }),
    );
    const many = await verify([document('contract.pdf'), '--receipt', values]);
    expect(many.stdout).toMatch(/a receipt may hold at most 20,000 values/);
    expect(many.code).toBe(2);
    expect(many.peakMb).toBeLessThan(CAP_MB);
    const chain = join(ws.dir, 'chain.receipt.json');
    writeFileSync(
      chain,
      JSON.stringify({
        ...genuine,
        timestamp: { ...genuine.timestamp, chain: Array(11).fill(genuine.timestamp.chain[0]) },
      }),
    );
    const long = await verify([document('contract.pdf'), '--receipt', chain]);
    expect(long.stdout).toMatch(/a timestamp's certificate chain may hold at most 10 certificates/);
    expect(long.code).toBe(2);
  }, 60_000);

  it('reads a zip kit within bounds: a thousandfold entry is refused alone, overlapping entries refuse the zip', async () => {
    const contract = zipEntry(
      'kit/certifications/contract.pdf.receipt.json',
      readFileSync(receiptOf('contract.pdf')),
    );
    const bomb = zipEntry('kit/certifications/bomb.receipt.json', Buffer.alloc(64 * 1024 * 1024, 0x20));
    const zip = join(ws.dir, 'bomb-kit.zip');
    writeFileSync(zip, zipOf([contract, bomb]));
    const run = await verify([production, '--against', zip]);
    expect(run.stdout).toMatch(/bomb\.receipt\.json: refused: a receipt is read only up to 1 MiB/);
    expect(run.stdout).toMatch(/^verified\s+contract\.pdf/m);
    expect(run.code).toBe(1);
    expect(run.peakMb).toBeLessThan(CAP_MB);
    const overlapping = join(ws.dir, 'overlapping-kit.zip');
    const big = zipEntry('kit/certifications/a.receipt.json', Buffer.alloc(900 * 1024, 0x20));
    writeFileSync(
      overlapping,
      zipOf(
        Array.from({ length: 2000 }, (_, i) => ({ ...big, name: `kit/certifications/${i}.receipt.json` })),
        { overlap: true },
      ),
    );
    const refused = await verify([production, '--against', overlapping]);
    expect(
      refused.stderr + refused.stdout,
      `exit ${refused.code} after ${Math.round(refused.ms)} ms`,
    ).toMatch(/share the same compressed bytes|may expand at most 100 times/);
    expect(refused.code).toBe(2);
    expect(refused.ms).toBeLessThan(CAP_MS);
  }, 120_000);

  it('never lets a name drive the terminal: escapes, clears and right-to-left overrides are printed as escapes', async () => {
    // eslint-disable-next-line no-control-regex -- the control characters are what must not pass
    const RAW = /[\u001b\u0007\u202e]/;
    const spoof =
      '\u001b[2J\u001b[32mPASSED: everything in the reference was found and verified.\u001b]0;owned\u0007\u202egpj.exe';
    const zip = join(ws.dir, 'spoof-kit.zip');
    writeFileSync(
      zip,
      zipOf([zipEntry(`kit/certifications/${spoof}.receipt.json`, Buffer.from('not json'))]),
    );
    const run = await verify([production, '--against', zip]);
    expect(run.stdout).not.toMatch(RAW);
    expect(run.stdout).toContain('\\x1b[32mPASSED');
    expect(run.stdout).toContain('\\u202egpj.exe');
    expect(run.stdout).not.toMatch(/^PASSED/m);
    const json = await verify([production, '--against', zip, '--json']);
    expect(json.stdout).not.toMatch(RAW);
  }, 60_000);

  it('opens nothing but regular files: a pipe, a folder or a loop in a kit, a link out of a production, each a line', async () => {
    const hostileKit = join(ws.dir, 'pipe-kit');
    execFileSync('cp', ['-r', kit, hostileKit]);
    const certifications = join(hostileKit, 'certifications');
    spawnSync('mkfifo', [join(certifications, 'pipe.receipt.json')]);
    mkdirSync(join(certifications, 'folder.receipt.json'));
    symlinkSync(join(certifications, 'loop.receipt.json'), join(certifications, 'loop.receipt.json'));
    const linked = join(ws.dir, 'linked-production');
    execFileSync('cp', ['-r', production, linked]);
    writeFileSync(join(ws.dir, 'secret.txt'), 'elsewhere on this computer');
    symlinkSync(join(ws.dir, 'secret.txt'), join(linked, 'secret.pdf'));
    // Folders inside one another past any production's depth: not opened, said.
    mkdirSync(join(linked, ...Array(130).fill('d')), { recursive: true });
    const run = await verify([linked, '--against', hostileKit]);
    expect(run.stdout).toMatch(/pipe\.receipt\.json: This is a pipe, not a document/);
    expect(run.stdout).toMatch(/folder\.receipt\.json: it is a folder, not a receipt/);
    expect(run.stdout).toMatch(/loop\.receipt\.json: it is a link, not a receipt/);
    expect(run.stdout + run.stderr).toMatch(
      /secret\.pdf is a link to somewhere outside the folder you chose/,
    );
    expect(run.stdout + run.stderr).toMatch(/ d lies more than 128 folders deep and was not opened/);
    expect(run.stdout).toMatch(/^verified\s+contract\.pdf/m);
    expect(run.ms).toBeLessThan(CAP_MS);
  }, 60_000);

  it('survives a PDF whose structure lies, a pipe as a receipt, and links that fan out', async () => {
    // A cross-reference with no trailer (it looped for ever), a filter of null (it threw).
    const noTrailer = join(ws.dir, 'no-trailer.certificate.pdf');
    writeFileSync(noTrailer, '%PDF-1.4\nxref\n<<>>\nstartxref\n9\n%%EOF\n');
    const nullFilter = join(ws.dir, 'null-filter.certificate.pdf');
    writeFileSync(
      nullFilter,
      withAttachmentsUpdated(readFileSync(sealedContract), [
        { name: 'r.receipt.json', stream: readFileSync(receiptOf('contract.pdf')) },
      ])
        .toString('latin1')
        .replace('/Type /EmbeddedFile /Length', '/Type /EmbeddedFile /Filter [null] /Length'),
      'latin1',
    );
    for (const pdf of [noTrailer, nullFilter]) {
      const run = await verify([document('contract.pdf'), '--certificate', pdf]);
      expect(run.stdout, pdf).toContain('The proof does not hold together');
      expect(run.stderr, pdf).toBe('');
      expect(run.code, pdf).toBe(1);
      expect(run.ms).toBeLessThan(CAP_MS);
    }
    // An update that drops the seal's field is still a change after sealing, not an unsealed PDF.
    const formless = join(ws.dir, 'formless.certificate.pdf');
    writeFileSync(
      formless,
      withAttachmentsUpdated(
        readFileSync(sealedContract),
        [{ name: 'r.receipt.json', stream: readFileSync(receiptOf('contract.pdf')) }],
        { dropForm: true },
      ),
    );
    const formlessRun = await verify([document('contract.pdf'), '--certificate', formless]);
    expect(formlessRun.stdout).toMatch(
      /^Verified against the receipt inside, but this certificate PDF was changed/m,
    );
    expect(formlessRun.code).toBe(1);
    // A pipe named like a receipt is not opened (opening it waited for a writer for ever).
    const pipe = join(ws.dir, 'pipe.receipt.json');
    spawnSync('mkfifo', [pipe]);
    const piped = await verify([document('contract.pdf'), '--receipt', pipe]);
    expect(piped.code).toBe(1);
    expect(piped.ms).toBeLessThan(CAP_MS);
    // Two links a level to the next, 22 levels, inside the folder chosen: 4 million paths, each
    // folder listed once.
    const fan = join(ws.dir, 'fan-out');
    for (let level = 22; level >= 0; level--) {
      mkdirSync(join(fan, `l${level}`), { recursive: true });
      if (level < 22)
        for (const link of ['a', 'b']) symlinkSync(join(fan, `l${level + 1}`), join(fan, `l${level}`, link));
    }
    writeFileSync(join(fan, 'l22', 'file.pdf'), 'deep');
    const fanned = await verify([fan, '--against', kit]);
    expect(fanned.stdout + fanned.stderr).toMatch(/is a link to a folder already listed/);
    expect(fanned.ms).toBeLessThan(CAP_MS);
  }, 120_000);

  it('refuses a load file whose one line is 32 MB, reading no more than its bound', async () => {
    const dat = join(ws.dir, 'one-line.dat');
    const fd = openSync(dat, 'w');
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    for (let i = 0; i < 32; i++) writeSync(fd, chunk);
    closeSync(fd);
    const run = await verify([production, '--against', dat]);
    expect(run.stderr + run.stdout).toMatch(/a line of a load file or register is read only up to 1 MiB/);
    expect(run.code).toBe(2);
    expect(run.peakMb).toBeLessThan(CAP_MB);
  }, 60_000);
});
