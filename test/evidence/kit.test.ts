import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Receipt } from '../../protocol/receipt';
import { writeKit } from '../../main/evidence/kit';
import type { Worker } from 'node:worker_threads';
import { certificatePdf } from '../../main/evidence/pdf/certificate';
import { CertificateDrawers } from '../../main/evidence/pdf/certificate-drawers';
import { runCli } from '../support/cli';
import type { TestWorkspace } from '../support/core';
import { workspace } from '../support/core';

// The kit for the other side, made by the CLI on the embedded sandbox and read with poppler,
// Python and OpenSSL — the tools a recipient without Evidence Desk has.
const PDF_PICTURES = join(process.cwd(), 'test-results', 'pdf');
const certifyArgs = ['--event-type', 'DOCUMENT_SIGNED', '--asset-type', 'contract', '--wait'];
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const pdfText = (path: string) => execFileSync('pdftotext', ['-layout', path, '-']).toString();

let ws: TestWorkspace;
beforeAll(() => {
  for (const tool of ['pdftotext', 'pdfdetach', 'pdftoppm', 'openssl', 'python3'])
    if (spawnSync('which', [tool]).status !== 0)
      throw new Error(`${tool} is needed (apt-get install poppler-utils openssl python3)`);
  // verify.html is built by the global setup (test/support/build-once.ts).
});
beforeEach(() => {
  ws = workspace('evidence-kit-');
});
afterEach(() => ws.cleanup());

const DOCUMENTS = {
  'Share purchase agreement.pdf': 'the signed agreement',
  'Договор поставки №5 — Ελληνικά.pdf': 'a contract in Cyrillic and Greek',
  // Printed in the computer's own CJK font (here Debian's Noto Sans CJK, installed by .ci/run).
  '売買契約書（署名済み）.pdf': 'a contract in Japanese',
  '계약서 최종본.pdf': 'a contract in Korean',
};

// One kit, certified and exported once, for the tests that only read it: making it is most of their time.
let made: TestWorkspace | undefined;
let madeKit: ReturnType<typeof makeKit> | undefined;
afterAll(() => made?.cleanup());
const certifiedKit = () => (madeKit ??= makeKit());

async function makeKit() {
  const ws = (made = workspace('evidence-kit-made-'));
  const docs = ws.files(DOCUMENTS);
  const certified = await runCli(ws.dataDir, ['certify', ...docs, ...certifyArgs]);
  expect(certified.code).toBe(0);
  // Every output says when certifications were made on a sandbox.
  expect(certified.stderr).toMatch(/DEMO — made on a sandbox: real cryptography, but no legal weight/);
  const kit = join(ws.dir, 'kit');
  const zip = join(ws.dir, 'kit.zip');
  const exported = await runCli(ws.dataDir, ['export', '--out', kit, '--zip', zip, '--json']);
  expect(exported.code, exported.stderr).toBe(0);
  expect(JSON.parse(exported.stdout)).toMatchObject({
    certifications: 4,
    folder: kit,
    zip,
    environment: { kind: 'embedded', demo: true, notice: expect.stringMatching(/no legal weight/) },
  });
  return { docs, kit, zip };
}

describe('the evidence kit', () => {
  it('holds a receipt and a certificate per certification, the register, verify.html, the log key and a README', async () => {
    const { kit, zip } = await certifiedKit();
    const names = Object.keys(DOCUMENTS);
    expect(readdirSync(kit).sort()).toEqual([
      'README.txt',
      'certifications',
      'log-key.pem',
      'register.pdf',
      'tsa-root.pem',
      'verify.html',
    ]);
    expect(readdirSync(join(kit, 'certifications')).sort()).toEqual(
      names.flatMap((name) => [`${name}.certificate.pdf`, `${name}.receipt.json`]).sort(),
    );
    const listed = zipEntries(zip);
    expect(listed).toHaveLength(13);
    expect(listed).toContain('evidence-kit/verify.html');

    const readme = readFileSync(join(kit, 'README.txt'), 'utf8');
    const receipt = JSON.parse(
      readFileSync(join(kit, 'certifications', `${names[0]}.receipt.json`), 'utf8'),
    ) as Receipt;
    expect(readme).toContain(receipt.log_key!.fingerprint);
    expect(readme).toMatch(/WARNING — DEMO: 4 of these certifications were made on a sandbox/);
    // verify.html offers exactly the kit's log key and timestamp root (trusted only once the reader
    // compares them), says DEMO, and allows no network request.
    const page = readFileSync(join(kit, 'verify.html'), 'utf8');
    const root = execFileSync('openssl', ['x509', '-in', join(kit, 'tsa-root.pem'), '-outform', 'DER']);
    const rootFingerprint = createHash('sha256').update(root).digest('hex');
    expect(readme).toContain(rootFingerprint);
    expect(page).toContain(
      `<script type="application/json" id="kit-trusted-keys">${JSON.stringify({ logKeys: [receipt.log_key!.fingerprint], tsaRoots: [rootFingerprint], demo: true })}</script>`,
    );
    expect(page).toMatch(/connect-src 'none'/);
    // Nothing the kit says to a reader is a program's placeholder for a value it failed to word.
    const readable = [
      readme,
      readFileSync(join(kit, 'certifications', `${names[0]}.receipt.json`), 'utf8'),
      execFileSync('pdftotext', [join(kit, 'register.pdf'), '-'], { encoding: 'utf8' }),
      execFileSync('pdftotext', [join(kit, 'certifications', `${names[0]}.certificate.pdf`), '-'], {
        encoding: 'utf8',
      }),
    ];
    for (const text of readable) expect(text).not.toMatch(/\[object |\bundefined\b|\bNaN\b/);

    // A kit of hundreds keeps the main thread's event loop turning (in the app: the window, IPC and
    // progress), instead of holding it for as long as the certificates and the register take.
    // Timed from the first certificate on: reading the fonts, once, comes before it. Held for the
    // whole kit, a timer never fires (about 1 s here); given turns, it fires throughout, and the
    // longest wait is bounded by how busy the machine is, not by the kit's size.
    const count = 200;
    const now = new Date('2026-11-24T09:30:00Z');
    const timeZone = 'Europe/Berlin';
    let longestWait = 0;
    let turns = 0;
    let lastTurn: number | undefined;
    const turn = () => {
      const now = performance.now();
      if (lastTurn !== undefined) longestWait = Math.max(longestWait, now - lastTurn);
      lastTurn = now;
    };
    const ticking = setInterval(() => lastTurn !== undefined && (turns++, turn()), 5);
    try {
      await writeKit(
        {
          count,
          selection: 'copies of one receipt',
          *receipts() {
            for (let i = 0; i < count; i++)
              yield { ...receipt, file: { ...receipt.file, name: `copy ${i}.pdf` } };
          },
        },
        { dir: join(ws.dir, 'large kit'), now, timeZone, onProgress: (done) => done === 1 && turn() },
      );
      turn();
    } finally {
      clearInterval(ticking);
    }
    expect(readdirSync(join(ws.dir, 'large kit', 'certifications'))).toHaveLength(2 * count);
    expect(turns).toBeGreaterThan(20);
    expect(longestWait).toBeLessThan(1_500);
    // A kit this large draws its certificates in worker threads: byte for byte what this thread draws.
    for (const i of [0, count - 1]) {
      const drawnHere = await certificatePdf(
        { ...receipt, file: { ...receipt.file, name: `copy ${i}.pdf` } },
        { receiptName: `copy ${i}.pdf.receipt.json`, generatedAt: now, timeZone },
      );
      const inKit = readFileSync(
        join(ws.dir, 'large kit', 'certifications', `copy ${i}.pdf.certificate.pdf`),
      );
      expect(inKit.equals(drawnHere)).toBe(true);
    }

    // A drawing thread that dies mid-kit loses nothing: what it held is drawn here instead.
    const drawers = new CertificateDrawers(1);
    const options = { receiptName: 'copy 0.pdf.receipt.json', generatedAt: now, timeZone };
    const seal = { placeholder: false, words: 'Not sealed: no timestamping authority is set.' };
    const drawing = [0, 1, 2].map(() => drawers.draw(receipt, options, seal));
    await (drawers as unknown as { drawers: { worker: Worker }[] }).drawers[0]?.worker.terminate();
    const drawn = await Promise.all(drawing);
    await drawers.close();
    const expected = await certificatePdf(receipt, options);
    for (const pdf of drawn) expect(pdf.equals(expected)).toBe(true);

    // An installation whose drawing thread cannot start (its script missing) still makes every
    // certificate, here.
    const broken = new CertificateDrawers(1, new URL('./no-such-worker.js', import.meta.url));
    const drawnAnyway = await Promise.all([0, 1].map(() => broken.draw(receipt, options, seal)));
    await broken.close();
    for (const pdf of drawnAnyway) expect(pdf.equals(expected)).toBe(true);
  }, 90_000);

  it('fails whole when one certificate cannot be made, never with that certificate missing', async () => {
    const { kit } = await certifiedKit();
    const receipt = JSON.parse(
      readFileSync(join(kit, 'certifications', `${Object.keys(DOCUMENTS)[0]}.receipt.json`), 'utf8'),
    ) as Receipt;
    let asked = 0;
    const written = writeKit(
      {
        count: 40,
        selection: 'copies of one receipt',
        *receipts() {
          for (let i = 0; i < 40; i++) yield { ...receipt, file: { ...receipt.file, name: `copy ${i}.pdf` } };
        },
      },
      {
        dir: join(ws.dir, 'failing kit'),
        // The authority's connection breaks while the 3rd certificate is sealed; the others go unsealed.
        timestamper: () =>
          ++asked === 3
            ? Promise.reject(new Error('connection reset'))
            : Promise.resolve({ problem: 'No authority here.' }),
      },
    );
    await expect(written).rejects.toThrow('connection reset');

    // Stopped by the person (Cancel): no half kit is left, and a folder that was there before stays.
    const copies = (count: number) => ({
      count,
      selection: 'copies of one receipt',
      *receipts() {
        for (let i = 0; i < count; i++)
          yield { ...receipt, file: { ...receipt.file, name: `copy ${i}.pdf` } };
      },
    });
    // A zip alone is written straight into the zip, each receipt read once: no folder anywhere.
    let reads = 0;
    const counted = { ...copies(3), receipts: () => (reads++, copies(3).receipts()) };
    const kitsInTemp = () => readdirSync(tmpdir()).filter((name) => name.startsWith('evidence-kit-'));
    const tempBefore = kitsInTemp();
    const zipOnly = join(ws.dir, 'zip only.zip');
    const zipped = await writeKit(counted, { zip: zipOnly });
    expect(reads).toBe(1);
    expect(zipped.dir).toBeNull();
    expect(kitsInTemp()).toEqual(tempBefore);
    expect(zipEntries(zipOnly)).toEqual(zipped.files.map((file) => `evidence-kit/${file}`).sort());
    expect(zipped.files).toEqual(
      expect.arrayContaining(['certifications/copy 2.pdf.certificate.pdf', 'register.pdf', 'verify.html']),
    );
    const existing = join(ws.dir, 'existing folder');
    mkdirSync(existing);
    writeFileSync(join(existing, 'notes.txt'), 'kept');
    for (const dir of [join(ws.dir, 'stopped kit'), existing]) {
      const stop = new AbortController();
      const stopped = writeKit(copies(40), {
        dir,
        zip: `${dir}.zip`,
        signal: stop.signal,
        onProgress: (done) => (done === 5 ? stop.abort() : undefined),
      });
      await expect(stopped).rejects.toThrow(/aborted/i);
      expect(existsSync(`${dir}.zip`)).toBe(false);
    }
    const stopZip = new AbortController();
    const zipStopped = writeKit(copies(40), {
      zip: join(ws.dir, 'stopped.zip'),
      signal: stopZip.signal,
      onProgress: (done) => (done === 5 ? stopZip.abort() : undefined),
    });
    await expect(zipStopped).rejects.toThrow(/aborted/i);
    expect(readdirSync(ws.dir).filter((name) => name.startsWith('stopped.zip'))).toEqual([]);
    expect(existsSync(join(ws.dir, 'stopped kit'))).toBe(false);
    expect(readdirSync(existing)).toEqual(['notes.txt']);
    expect(readFileSync(join(existing, 'notes.txt'), 'utf8')).toBe('kept');
  }, 60_000);

  it('certificates carry the hash in their text, the DEMO mark, and the receipt as an attachment', async () => {
    const { kit } = await certifiedKit();
    mkdirSync(PDF_PICTURES, { recursive: true });
    for (const [i, name] of Object.keys(DOCUMENTS).entries()) {
      const certificate = join(kit, 'certifications', `${name}.certificate.pdf`);
      const text = pdfText(certificate);
      expect(text).toContain(sha256(Object.values(DOCUMENTS)[i]!));
      expect(text).toContain(name);
      expect(text).toMatch(/DEMO — this certification was made on a sandbox/);
      expect(text).toMatch(/Evidence Certificate/);
      const detached = join(ws.dir, `detached-${i}`);
      mkdirSync(detached);
      execFileSync('pdfdetach', ['-saveall', '-o', detached, certificate]);
      expect(readdirSync(detached)).toEqual([`${name}.receipt.json`]);
      expect(JSON.parse(readFileSync(join(detached, `${name}.receipt.json`), 'utf8'))).toEqual(
        JSON.parse(readFileSync(join(kit, 'certifications', `${name}.receipt.json`), 'utf8')),
      );
      execFileSync('pdftoppm', [
        '-r',
        '110',
        '-png',
        '-singlefile',
        certificate,
        join(PDF_PICTURES, `certificate-${i + 1}`),
      ]);
    }
    // A script no font on this computer draws prints as code points, never as empty boxes.
    const receipt = JSON.parse(
      readFileSync(join(kit, 'certifications', `${Object.keys(DOCUMENTS)[0]}.receipt.json`), 'utf8'),
    ) as Receipt;
    const linearB = join(ws.dir, 'linear-b.certificate.pdf');
    writeFileSync(
      linearB,
      await certificatePdf(
        { ...receipt, file: { ...receipt.file, name: 'Tablet \u{10000}\u{10001}.pdf' } },
        { receiptName: 'tablet.receipt.json', generatedAt: new Date() },
      ),
    );
    expect(pdfText(linearB)).toContain('Tablet [U+10000][U+10001].pdf');

    // Times in the certifier's zone, with UTC beside them: each once.
    const berlin = join(ws.dir, 'berlin.pdf');
    writeFileSync(
      berlin,
      await certificatePdf(receipt, {
        receiptName: 'r.receipt.json',
        generatedAt: new Date(),
        timeZone: 'Europe/Berlin',
      }),
    );
    const certifiedAt = Date.parse(receipt.certification.certified_at);
    const berlinText = pdfText(berlin);
    expect(berlinText).toMatch(/\w+ \d+, \d{4} at [\d:]+ [AP]M GMT\+1\s+\(Europe\/Berlin\)/);
    expect(berlinText).toContain(`${new Date(certifiedAt).toISOString().slice(0, 19).replace('T', ' ')} UTC`);
    expect(berlinText).not.toMatch(/Z \(UTC\)/);

    const register = pdfText(join(kit, 'register.pdf'));
    expect(register).toMatch(/Register of Certified Evidence/);
    for (const [name, content] of Object.entries(DOCUMENTS)) {
      expect(register).toContain(name.slice(0, 20));
      expect(register).toContain(sha256(content).slice(0, 32));
      // A certification id breaks only after its hyphens: each part of it reads whole.
      const { certification } = JSON.parse(
        readFileSync(join(kit, 'certifications', `${name}.receipt.json`), 'utf8'),
      ) as Receipt;
      for (const part of certification.certification_id!.split('-')) expect(register).toContain(part);
    }
    execFileSync('pdftoppm', [
      '-r',
      '90',
      '-png',
      '-f',
      '1',
      '-l',
      '1',
      join(kit, 'register.pdf'),
      join(PDF_PICTURES, 'register'),
    ]);
    expect(existsSync(join(PDF_PICTURES, 'certificate-1.png'))).toBe(true);
  }, 90_000);

  it('verifies with the certificate alone on another computer, and tells a changed document or certificate apart', async () => {
    const { docs, kit } = await certifiedKit();
    const name = Object.keys(DOCUMENTS)[0]!;
    const certificate = join(kit, 'certifications', `${name}.certificate.pdf`);
    const elsewhere = join(ws.dir, 'another computer');
    const verify = async (doc: string, proof: string) => {
      const result = await runCli(elsewhere, [
        'verify',
        doc,
        '--certificate',
        proof,
        '--log-key',
        join(kit, 'log-key.pem'),
        '--tsa-root',
        join(kit, 'tsa-root.pem'),
        '--json',
      ]);
      return {
        code: result.code,
        ...(JSON.parse(result.stdout) as { verdict: string; check?: string; message: string }),
      };
    };
    expect(await verify(docs[0]!, certificate)).toMatchObject({ code: 0, verdict: 'verified' });

    const [changed] = ws.files({ 'edited.pdf': 'the signed agreement, edited' });
    expect(await verify(changed!, certificate)).toMatchObject({ code: 1, verdict: 'content_differs' });

    // A certificate made from an altered receipt: the proof no longer leads to the signed root.
    const receipt = JSON.parse(
      readFileSync(join(kit, 'certifications', `${name}.receipt.json`), 'utf8'),
    ) as Receipt;
    const evidence = receipt.evidence as { leaf_index: number };
    const forged = join(ws.dir, 'forged.certificate.pdf');
    writeFileSync(
      forged,
      await certificatePdf(
        { ...receipt, evidence: { ...evidence, leaf_index: evidence.leaf_index + 1 } },
        { receiptName: 'forged.receipt.json', generatedAt: new Date() },
      ),
    );
    expect(await verify(docs[0]!, forged)).toMatchObject({
      code: 1,
      verdict: 'receipt_invalid',
      check: 'proof',
    });

    // A PDF that carries no receipt (the register), and a certificate with bytes changed inside its attachment.
    expect(await verify(docs[0]!, join(kit, 'register.pdf'))).toMatchObject({
      code: 1,
      verdict: 'receipt_invalid',
      check: 'format',
      message: expect.stringMatching(/carries no Evidence Desk receipt/),
    });
    const bytes = readFileSync(certificate);
    const stream = bytes.indexOf('stream', bytes.indexOf('/Type /EmbeddedFile')) + 20;
    bytes[stream] = bytes[stream]! ^ 0xff;
    const damaged = join(ws.dir, 'damaged.certificate.pdf');
    writeFileSync(damaged, bytes);
    expect(await verify(docs[0]!, damaged)).toMatchObject({ code: 1, verdict: 'receipt_invalid' });
    expect(existsSync(elsewhere) ? readdirSync(elsewhere) : []).toEqual([]);
  }, 90_000);

  it("README's manual steps verify with Python and OpenSSL alone, and fail on a changed document", async () => {
    const { docs, kit } = await certifiedKit();
    const readme = readFileSync(join(kit, 'README.txt'), 'utf8');
    const script = /----- check_receipt.py -----\n([\s\S]*?)----- end -----/.exec(readme)![1]!;
    const bench = join(ws.dir, 'by hand');
    mkdirSync(bench);
    writeFileSync(join(bench, 'check_receipt.py'), script);
    copyFileSync(join(kit, 'log-key.pem'), join(bench, 'log-key.pem'));
    const name = Object.keys(DOCUMENTS)[1]!;
    const receiptPath = join(kit, 'certifications', `${name}.receipt.json`);
    const receipt = JSON.parse(readFileSync(receiptPath, 'utf8')) as Receipt;

    const step3 = spawnSync('python3', ['check_receipt.py', receiptPath, docs[1]!], { cwd: bench });
    expect(step3.status, step3.stderr.toString()).toBe(0);
    const step4 = spawnSync(
      'openssl',
      [
        'pkeyutl',
        '-verify',
        '-pubin',
        '-inkey',
        'log-key.pem',
        '-rawin',
        '-in',
        'tree-head.bin',
        '-sigfile',
        'tree-head.sig',
      ],
      { cwd: bench },
    );
    expect(step4.stdout.toString()).toMatch(/Signature Verified Successfully/);
    const der = execFileSync('openssl', ['pkey', '-pubin', '-in', 'log-key.pem', '-outform', 'DER'], {
      cwd: bench,
    });
    expect(sha256(der)).toBe(receipt.log_key!.fingerprint);

    const wrong = spawnSync('python3', ['check_receipt.py', receiptPath, docs[0]!], { cwd: bench });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr.toString()).toMatch(/NOT the certified document/);

    // The independent timestamp by hand: the README's script, then exactly its OpenSSL commands.
    const stampScript = /----- check_timestamp.py -----\n([\s\S]*?)----- end -----/.exec(readme)![1]!;
    writeFileSync(join(bench, 'check_timestamp.py'), stampScript);
    copyFileSync(join(kit, 'tsa-root.pem'), join(bench, 'tsa-root.pem'));
    const step5 = spawnSync('python3', ['check_timestamp.py', receiptPath, docs[1]!], { cwd: bench });
    expect(step5.status, step5.stderr.toString()).toBe(0);
    const commands = readme
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('openssl ts '));
    expect(commands).toHaveLength(2);
    const [verifyToken, showTime] = commands.map((command) => command.split(' | ')[0]!.split(/\s+/).slice(1));
    const step6 = spawnSync('openssl', verifyToken!, { cwd: bench });
    expect(step6.stdout.toString(), step6.stderr.toString()).toMatch(/Verification: OK/);
    const time = execFileSync('openssl', showTime!, { cwd: bench }).toString();
    // OpenSSL prints genTime as "Nov 23 21:44:14 2026 GMT" (day padded with a space): the same second.
    const [, day, month, year, clock] = new Date(receipt.timestamp!.gen_time).toUTCString().split(' ');
    expect(time).toContain(
      `Time stamp: ${month} ${String(Number(day)).padStart(2, ' ')} ${clock} ${year} GMT`,
    );
    const wrongStamp = spawnSync('python3', ['check_timestamp.py', receiptPath, docs[0]!], { cwd: bench });
    expect(wrongStamp.status).not.toBe(0);
    expect(wrongStamp.stderr.toString()).toMatch(/NOT the timestamped document/);
  }, 90_000);

  it('seals certificates and the register with a document timestamp OpenSSL accepts, which one changed byte breaks', async () => {
    const { kit } = await certifiedKit();
    const check = (pdf: Buffer, name: string) => {
      // The PDF's own ByteRange and the token in /Contents, read as any independent checker would.
      const text = pdf.toString('latin1');
      const range = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+) *\]/.exec(text)!.slice(1).map(Number);
      const [a, b, c, d] = range as [number, number, number, number];
      expect(a).toBe(0);
      expect(c + d).toBe(pdf.length);
      expect(text).toMatch(/\/Type \/DocTimeStamp/);
      expect(text).toMatch(/\/SubFilter \/ETSI\.RFC3161/);
      writeFileSync(
        join(ws.dir, `${name}.signed`),
        Buffer.concat([pdf.subarray(a, b), pdf.subarray(c, c + d)]),
      );
      const hex = text.slice(b + 1, c - 1).replace(/(00)+$/, '');
      writeFileSync(join(ws.dir, `${name}.tst`), Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex'));
      return spawnSync('openssl', [
        'ts',
        '-verify',
        '-data',
        join(ws.dir, `${name}.signed`),
        '-in',
        join(ws.dir, `${name}.tst`),
        '-token_in',
        '-CAfile',
        join(kit, 'tsa-root.pem'),
      ]).stdout.toString();
    };
    for (const file of [
      join('certifications', `${Object.keys(DOCUMENTS)[0]}.certificate.pdf`),
      'register.pdf',
    ]) {
      const pdf = readFileSync(join(kit, file));
      expect(check(pdf, 'intact'), file).toMatch(/Verification: OK/);
      expect(
        execFileSync('pdftotext', [join(kit, file), '-'])
          .toString()
          .replace(/\s+/g, ' '),
        file,
      ).toMatch(/sealed|Sealed/);
      // One byte of the visible text, changed as a forger would.
      const changed = Buffer.from(pdf);
      const at = changed.indexOf('/Producer');
      changed[at + 12] = changed[at + 12]! ^ 0x01;
      expect(check(changed, 'changed'), file).not.toMatch(/Verification: OK/);
    }
  }, 90_000);
});

/** The entries of a zip as Python's zipfile reads it (not our own reader), sorted. */
function zipEntries(zip: string): string[] {
  return execFileSync('python3', [
    '-c',
    'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))',
    zip,
  ])
    .toString()
    .trim()
    .split('\n')
    .sort();
}
