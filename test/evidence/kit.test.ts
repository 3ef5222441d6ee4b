import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
import { openCore, workspace } from '../support/core';
import type { DocumentTimestamper } from '../../main/tools/pdf/seal';

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
      'META-INF',
      'README.txt',
      'certifications',
      'log-key.pem',
      'mimetype',
      'register.pdf',
      'tsa-root.pem',
      'verify.html',
    ]);
    const numbered = [1, 2, 3, 4].map((n) => `00${n}`);
    expect(readdirSync(join(kit, 'META-INF')).sort()).toEqual(
      [
        'ASiCManifest.xml',
        'timestamp-chain.pem',
        'timestamp-ocsp-1.der',
        'timestamp-root.pem',
        'timestamp-signer.pem',
        'timestamp.tst',
        ...numbered.flatMap((n) => [`ASiCEvidenceRecordManifest${n}.xml`, `evidencerecord${n}.ers`]),
      ].sort(),
    );
    expect(readdirSync(join(kit, 'certifications')).sort()).toEqual(
      names.flatMap((name) => [`${name}.certificate.pdf`, `${name}.receipt.json`, `${name}.ers`]).sort(),
    );
    // Each document's record where an ASiC-E reader looks (EN 319 162-1), its manifest naming the
    // document it covers and that document's SHA-256.
    const covered = numbered.map((n) => {
      const manifest = readFileSync(join(kit, 'META-INF', `ASiCEvidenceRecordManifest${n}.xml`), 'utf8');
      expect(manifest).toContain(`<asic:SigReference URI="META-INF/evidencerecord${n}.ers"/>`);
      const [, uri, digest] =
        /DataObjectReference URI="([^"]+)">.*<ds:DigestValue>([^<]+)</.exec(manifest) ?? [];
      const name = decodeURIComponent(uri!);
      const receipt = JSON.parse(
        readFileSync(join(kit, 'certifications', `${name}.receipt.json`), 'utf8'),
      ) as Receipt;
      expect(Buffer.from(digest!, 'base64').toString('hex')).toBe(receipt.file.sha256);
      expect(readFileSync(join(kit, 'META-INF', `evidencerecord${n}.ers`))).toEqual(
        readFileSync(join(kit, 'certifications', `${name}.ers`)),
      );
      return name;
    });
    expect(covered.sort()).toEqual([...names].sort());
    const listed = zipEntries(zip);
    expect(listed).toHaveLength(32);
    expect(listed).toContain('verify.html');
    // An ASiC-E container (EN 319 162-1): "mimetype" first, stored, no extra field, as Python reads it.
    expect(
      execFileSync('python3', [
        '-c',
        'import sys, zipfile; e = zipfile.ZipFile(sys.argv[1]).infolist()[0]; print(e.filename, e.compress_type, len(e.extra))',
        zip,
      ]).toString(),
    ).toBe('mimetype 0 0\n');
    expect(
      readFileSync(zip)
        .subarray(30, 38 + 31)
        .toString('latin1'),
    ).toBe('mimetypeapplication/vnd.etsi.asic-e+zip');

    const readme = readFileSync(join(kit, 'README.txt'), 'utf8');
    const receipt = JSON.parse(
      readFileSync(join(kit, 'certifications', `${names[0]}.receipt.json`), 'utf8'),
    ) as Receipt;
    expect(readme).toContain(receipt.log_key!.fingerprint);
    expect(readme).toMatch(/WARNING — DEMO: 4 of these certifications were made on a sandbox/);
    // Every file the recipient finds is named, the seal's too.
    expect(readme).toMatch(/META-INF\/ {2}and {2}mimetype {14}The kit's seal/);
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
    expect(readdirSync(join(ws.dir, 'large kit', 'certifications'))).toHaveLength(3 * count);
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
    const seal = {
      by: 'none',
      placeholder: false,
      words: 'Not sealed: no timestamping authority is set.',
    } as const;
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

  it('fails whole when its seal cannot be had, never saved unsealed, and stops whole', async () => {
    const { kit } = await certifiedKit();
    const receipt = JSON.parse(
      readFileSync(join(kit, 'certifications', `${Object.keys(DOCUMENTS)[0]}.receipt.json`), 'utf8'),
    ) as Receipt;
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
        // The authority's connection breaks when the kit, every other file written, asks for its seal.
        timestamper: () => Promise.reject(new Error('connection reset')),
      },
    );
    await expect(written).rejects.toThrow('connection reset');
    expect(existsSync(join(ws.dir, 'failing kit'))).toBe(false);
    // Saved unsealed only when asked, and then it says so: the README and every page.
    const unsealed = join(ws.dir, 'unsealed kit');
    const chosen = await runCli(made!.dataDir, ['export', '--out', unsealed, '--unsealed']);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(existsSync(join(unsealed, 'META-INF'))).toBe(false);
    expect(readFileSync(join(unsealed, 'README.txt'), 'utf8')).toContain(
      'This kit is not sealed as a whole: it was saved unsealed, by choice.',
    );
    expect(pdfText(join(unsealed, 'register.pdf')).replace(/\s+/g, ' ')).toContain(
      'Not sealed: it was saved unsealed, by choice.',
    );

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
    const entries = zipEntries(zipOnly);
    expect(new Set(entries).size).toBe(entries.length);
    expect(entries).toEqual(
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

  it("README's manual steps, run from the kit's folder, verify with Python and OpenSSL alone, and fail on a change", async () => {
    const { docs, kit } = await certifiedKit();
    // The kit as its recipient has it, unzipped; every step runs from its folder, as the README says.
    const received = join(ws.dir, 'received kit');
    cpSync(kit, received, { recursive: true });
    const readme = readFileSync(join(received, 'README.txt'), 'utf8');
    expect(readme).toMatch(/Run every command below from the kit's folder/);
    const scriptOf = (name: string) => {
      const script = new RegExp(`----- ${name} -----\\n([\\s\\S]*?)----- end -----`).exec(readme)![1]!;
      writeFileSync(join(received, name), script);
    };
    const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: received });
    /** The README's command line that starts this way, split as a shell would (no quotes in them). */
    const commandOf = (start: string) => {
      const line = readme
        .split('\n')
        .map((text) => text.trim())
        .find((text) => text.startsWith(start))!;
      return line.split(' | ')[0]!.split(/\s+/).slice(1);
    };
    const name = Object.keys(DOCUMENTS)[1]!;
    const receiptPath = join('certifications', `${name}.receipt.json`);
    const receipt = JSON.parse(readFileSync(join(received, receiptPath), 'utf8')) as Receipt;
    // The receipt lists the timestamp's steps too, beside the log's.
    expect(receipt.how_to_verify.join('\n')).toMatch(
      /timestamp\.reduced[\s\S]*openssl ts -verify -digest[\s\S]*timestamp\.chain/,
    );

    scriptOf('check_receipt.py');
    const step3 = run('python3', ['check_receipt.py', receiptPath, docs[1]!]);
    expect(step3.status, step3.stderr.toString()).toBe(0);
    const step4 = run('openssl', commandOf('openssl pkeyutl -verify'));
    expect(step4.stdout.toString()).toMatch(/Signature Verified Successfully/);
    const der = execFileSync('openssl', ['pkey', '-pubin', '-in', 'log-key.pem', '-outform', 'DER'], {
      cwd: received,
    });
    expect(sha256(der)).toBe(receipt.log_key!.fingerprint);
    const wrong = run('python3', ['check_receipt.py', receiptPath, docs[0]!]);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr.toString()).toMatch(/NOT the certified document/);

    // The independent time by hand: the README's script, then exactly its OpenSSL commands.
    scriptOf('check_timestamp.py');
    const step5 = run('python3', ['check_timestamp.py', receiptPath, docs[1]!]);
    expect(step5.status, step5.stderr.toString()).toBe(0);
    const rootHex = /ROOT_HEX is ([0-9a-f]{64})/.exec(step5.stdout.toString())?.[1];
    expect(rootHex).toBe(receipt.timestamp!.root);
    const step6 = run(
      'openssl',
      commandOf('openssl ts -verify -digest ROOT_HEX').map((arg) => (arg === 'ROOT_HEX' ? rootHex! : arg)),
    );
    expect(step6.stdout.toString(), step6.stderr.toString()).toMatch(/Verification: OK/);
    const time = run('openssl', commandOf('openssl ts -reply -in timestamp.tsr')).stdout.toString();
    expect(time).toContain(`Time stamp: ${opensslTime(receipt.timestamp!.gen_time)}`);
    const wrongStamp = run('python3', ['check_timestamp.py', receiptPath, docs[0]!]);
    expect(wrongStamp.status).not.toBe(0);
    expect(wrongStamp.stderr.toString()).toMatch(/NOT the timestamped document/);

    // The kit's seal by hand: the token over the manifest, then every file against the manifest.
    const step7 = run('openssl', commandOf('openssl ts -verify -data META-INF/ASiCManifest.xml'));
    expect(step7.stdout.toString(), step7.stderr.toString()).toMatch(/Verification: OK/);
    expect(
      run('openssl', commandOf('openssl ts -reply -in META-INF/timestamp.tst')).stdout.toString(),
    ).toMatch(/Time stamp: \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4} GMT/);
    // The authority's standing when it sealed, from the answer its issuer signed, kept in META-INF.
    const standing = run('openssl', commandOf('openssl ocsp -respin META-INF/timestamp-ocsp-1.der'));
    expect(standing.stdout.toString()).toMatch(/META-INF\/timestamp-signer\.pem: good/);
    expect(standing.stderr.toString()).toContain('Response verify OK');
    scriptOf('check_kit.py');
    const step8 = run('python3', ['check_kit.py']);
    expect(step8.status, step8.stderr.toString()).toBe(0);
    expect(step8.stdout.toString()).toMatch(/Every file of the kit \(17\) is as it was sealed/);
    // What the steps wrote into the folder is named apart, never taken for part of the kit.
    expect(step8.stdout.toString()).toMatch(
      /written by the steps of its README: batch-root\.bin, check_kit\.py/,
    );
    // One changed byte of a certificate, a file added and one removed: each named.
    const certificate = join(received, 'certifications', `${name}.certificate.pdf`);
    const bytes = readFileSync(certificate);
    bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 0x01;
    writeFileSync(certificate, bytes);
    writeFileSync(join(received, 'certifications', 'Exhibit Z.pdf.receipt.json'), '{}');
    rmSync(join(received, 'register.pdf'));
    const changed = run('python3', ['check_kit.py']);
    expect(changed.status).toBe(1);
    expect(changed.stdout.toString()).toContain(
      [
        `changed since sealing: certifications/${name}.certificate.pdf`,
        'removed since sealing: register.pdf',
        'added since sealing: certifications/Exhibit Z.pdf.receipt.json',
      ].join('\n'),
    );
    // A changed manifest no longer matches the token.
    const manifest = join(received, 'META-INF', 'ASiCManifest.xml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('register.pdf', 'register.pdX'));
    const forged = run('openssl', commandOf('openssl ts -verify -data META-INF/ASiCManifest.xml'));
    expect(forged.stdout.toString()).not.toMatch(/Verification: OK/);
  }, 90_000);

  it('seals a kit with one timestamp for all its files, never saves it unsealed when the authority refuses, and seals a certificate saved alone on its own', async () => {
    const { kit } = await certifiedKit();
    const receipt = JSON.parse(
      readFileSync(join(kit, 'certifications', `${Object.keys(DOCUMENTS)[0]}.receipt.json`), 'utf8'),
    ) as Receipt;
    const copies = {
      count: 45,
      selection: 'copies of one receipt',
      *receipts() {
        for (let i = 0; i < 45; i++) yield { ...receipt, file: { ...receipt.file, name: `copy ${i}.pdf` } };
      },
    };
    // Every request the kit makes of its authority, answered with a token of its own bytes (not checked here).
    const asked: Uint8Array[] = [];
    const counting: DocumentTimestamper = async (bytes) => {
      asked.push(bytes);
      return { token: Uint8Array.of(1, 2, 3) };
    };
    const written = await writeKit(copies, { dir: join(ws.dir, 'sealed kit'), timestamper: counting });
    expect(asked).toHaveLength(1);
    expect(Buffer.from(asked[0]!).toString()).toBe(
      readFileSync(join(ws.dir, 'sealed kit', 'META-INF', 'ASiCManifest.xml'), 'utf8'),
    );
    expect(existsSync(join(written.dir!, 'META-INF', 'timestamp.tst'))).toBe(true);
    // Its certificates and register say how the kit seals them, and carry no seal of their own.
    const inKit = readFileSync(join(ws.dir, 'sealed kit', 'certifications', 'copy 0.pdf.certificate.pdf'));
    expect(inKit.toString('latin1')).not.toContain('/DocTimeStamp');
    expect(
      pdfText(join(ws.dir, 'sealed kit', 'certifications', 'copy 0.pdf.certificate.pdf')).replace(
        /\s+/g,
        ' ',
      ),
    ).toMatch(/This PDF is sealed with its evidence kit, not on its own: its SHA-256 is listed in the kit’s/);
    expect(pdfText(join(ws.dir, 'sealed kit', 'register.pdf')).replace(/\s+/g, ' ')).toMatch(
      /Sealed with its kit/,
    );

    // An authority that refuses: the export fails saying why, and nothing of the kit is left.
    const refusing: DocumentTimestamper = async () => ({ problem: 'The authority answered 503.' });
    const refusedDir = join(ws.dir, 'refused kit');
    const refusedZip = join(ws.dir, 'refused kit.zip');
    await expect(
      writeKit(copies, { dir: refusedDir, zip: refusedZip, timestamper: refusing }),
    ).rejects.toThrow(
      'The evidence kit could not be sealed: The authority answered 503. Nothing of it was kept',
    );
    expect(existsSync(refusedDir)).toBe(false);
    expect(readdirSync(ws.dir).filter((file) => file.startsWith('refused kit'))).toEqual([]);

    // A certificate saved on its own is sealed on its own (PAdES), checked by the README's step 9
    // against the authority's root the kit carries; one changed byte breaks it.
    const core = await openCore(made!.dataDir);
    const alone = join(ws.dir, 'alone.certificate.pdf');
    try {
      const [row] = core.queue.rows([1]);
      await core.exports.saveCertificate(row!.id, alone);
    } finally {
      await core.close();
    }
    expect(pdfText(alone).replace(/\s+/g, ' ')).toMatch(/This PDF is sealed: an RFC 3161 document timestamp/);
    const readme = readFileSync(join(kit, 'README.txt'), 'utf8');
    writeFileSync(
      join(ws.dir, 'check_pdf_seal.py'),
      /----- check_pdf_seal.py -----\n([\s\S]*?)----- end -----/.exec(readme)![1]!,
    );
    const verifyArgs = readme
      .split('\n')
      .map((text) => text.trim())
      .find((text) => text.startsWith('openssl ts -verify -data pdf-signed.bin'))!
      .replace('AUTHORITY-ROOT.pem', join(kit, 'META-INF', 'timestamp-root.pem'))
      .split(/\s+/)
      .slice(1);
    const byHand = (pdf: string) => {
      const cut = spawnSync('python3', ['check_pdf_seal.py', pdf], { cwd: ws.dir });
      return cut.status === 0
        ? spawnSync('openssl', verifyArgs, { cwd: ws.dir }).stdout.toString()
        : cut.stderr.toString();
    };
    expect(byHand(alone)).toMatch(/Verification: OK/);
    const changed = readFileSync(alone);
    const at = changed.indexOf('/Producer');
    changed[at + 12] = changed[at + 12]! ^ 0x01;
    writeFileSync(join(ws.dir, 'changed.pdf'), changed);
    expect(byHand(join(ws.dir, 'changed.pdf'))).not.toMatch(/Verification: OK/);
  }, 90_000);
});

/** A genTime as OpenSSL prints it: "Nov  3 21:44:14 2026 GMT" (the day padded with a space). */
function opensslTime(iso: string): string {
  const [, day, month, year, clock] = new Date(iso).toUTCString().split(' ');
  return `${month} ${String(Number(day)).padStart(2, ' ')} ${clock} ${year} GMT`;
}

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
