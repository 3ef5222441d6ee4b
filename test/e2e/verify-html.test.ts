import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Receipt } from '../../protocol/receipt';
import type { TestWorkspace } from '../support/core';
import { METADATA, openCore, workspace } from '../support/core';
import { editedCopies, refusedCopy } from '../support/edited-receipts';
import { flateBomb, withAttachmentsUpdated } from '../support/hostile';
import { SCREENSHOTS, SCREENSHOTS_WANTED, accessibilityViolations, screenshotVariants } from './harness';
import { watchPageThread } from './page-thread';
import { giveBack, reusablePage } from './window-pages';
import { FILTERS_OF_THE_SET } from './set-filters';

// verify.html as the other side opens it: from file://, in Chromium, with no Evidence Desk and
// no network. The kit is made by the real core on the embedded sandbox.
let ws: TestWorkspace;
let kit: string;
let docs: string[];
let sealedAlone: string;
const DOCS = { 'Exhibit A.pdf': 'exhibit a', 'Exhibit B.pdf': 'exhibit b', 'Exhibit C.pdf': 'exhibit c' };

beforeAll(async () => {
  ws = workspace('evidence-verify-html-');
  const core = await openCore(ws.dataDir, { embeddedSandbox: { batchIntervalMs: 200 } });
  try {
    docs = ws.files(DOCS);
    const { queued } = await core.certify(docs, METADATA);
    await core.sync.waitUntilSettled(queued);
    kit = join(ws.dir, 'kit');
    await core.exports.exportEvidence({}, { dir: kit });
    // A certificate saved on its own carries its own seal (a kit's are sealed by the kit).
    sealedAlone = join(ws.dir, 'Exhibit A.pdf.certificate.pdf');
    await core.exports.saveCertificate(queued[0]!, sealedAlone);
  } finally {
    await core.close();
  }
  // And a certification that is only queued: its receipt cannot be verified yet.
  const queuedOnly = await openCore(join(ws.dir, 'offline data'), { sync: false });
  try {
    const [draft] = ws.files({ 'Draft.pdf': 'a draft never sent' });
    const [row] = queuedOnly.queue.rows((await queuedOnly.certify([draft!], METADATA)).queued);
    writeFileSync(
      join(ws.dir, 'Draft.pdf.receipt.json'),
      JSON.stringify(queuedOnly.exports.receipt(row!.id)),
    );
  } finally {
    await queuedOnly.close();
  }
}, 60_000);
/** What a page did while a test used it: requests besides loading itself, and errors. */
interface Reading {
  path: string;
  requests: string[];
  errors: string[];
}
const readings = new WeakMap<Page, Reading>();
const opened: Page[] = [];
afterEach(async () => {
  for (const page of opened.splice(0)) {
    readings.delete(page);
    await giveBack(page, ['request']);
  }
});
afterAll(async () => {
  ws?.cleanup();
});

const receiptOf = (name: string) => join(kit, 'certifications', `${name}.receipt.json`);
const certificateOf = (name: string) => join(kit, 'certifications', `${name}.certificate.pdf`);

/**
 * Opens a verify.html from disk and records every request it makes besides loading itself. A kit's
 * page offers the kit's keys; unless told not to, they are trusted as a recipient does once the
 * fingerprints are compared ("They match").
 */
async function open(
  path = join(kit, 'verify.html'),
  { trustKit = true, locale = 'en-US' }: { trustKit?: boolean; locale?: string } = {},
): Promise<{ page: Page; requests: string[] }> {
  const page = await reusablePage(locale, watchReading);
  opened.push(page);
  await page.setViewportSize({ width: 1000, height: 900 });
  const reading: Reading = { path, requests: [], errors: [] };
  readings.set(page, reading);
  const { requests, errors } = reading;
  await page.goto(`file://${path}`);
  if (path.startsWith(kit)) {
    await expect.poll(() => page.locator('#kit-key-list li').count()).toBeGreaterThan(0);
    if (trustKit) await page.locator('#trust-kit').check();
  }
  expect(errors).toEqual([]);
  return { page, requests };
}

/** Made once per page, reused by the tests after: what it does is told to the test reading it now. */
async function watchReading(page: Page): Promise<void> {
  page.on('request', (request) => {
    const reading = readings.get(page);
    // The page's worker starts from its own script, as a blob made in the page: nothing leaves it.
    if (!reading || request.url().startsWith('blob:')) return;
    if (request.url() !== `file://${reading.path.split('/').map(encodeURIComponent).join('/')}`)
      reading.requests.push(request.url());
  });
  page.on('pageerror', (error) => readings.get(page)?.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') readings.get(page)?.errors.push(message.text());
  });
}

/**
 * Gives the page a document and a proof, and reads its verdict. The page stays open between checks,
 * as a reader's does: each file given starts a new check at once ("Checking…"), and a check
 * overtaken by a newer one is never shown.
 */
async function check(page: Page, document: string, proof: string): Promise<string> {
  await page.setInputFiles('#document', document);
  await page.setInputFiles('#proof', proof);
  const result = page.getByRole('status');
  await expect
    .poll(() => result.textContent(), { timeout: 20_000 })
    .not.toMatch(/Checking…|Waiting|Now give|Wird geprüft|Warte auf|Geben Sie nun/);
  return (await result.textContent()) ?? '';
}

describe('verify.html, opened from the kit', () => {
  it('verifies a document with its receipt or its certificate, offline, and explains the verdict', async () => {
    const { page, requests } = await open();
    const receipt = JSON.parse(readFileSync(receiptOf('Exhibit B.pdf'), 'utf8')) as Receipt;
    expect(await check(page, docs[1]!, receiptOf('Exhibit B.pdf'))).toMatch(
      /^Verified: this is the certified documentThis is exactly the certified content for the event “Signed”.*Time confirmed by DEMO Evidence Sandbox Timestamping Authority.*DEMO: this certification was made on a sandbox/,
    );
    // Signed facts first; the name comes after, under what nobody signed.
    const facts = page.locator('#facts');
    await expect.poll(() => facts.textContent()).toContain('Exhibit B.pdf');
    const text = (await facts.textContent()) ?? '';
    const [before, stated] = text.split('Stated by whoever made this receipt, not signed');
    const signed = before!.slice(before!.indexOf('Signed'));
    expect(signed).toContain(receipt.certification.certified_at);
    expect(signed).toContain(receipt.timestamp!.gen_time);
    // The document's evidence record, checked in the page: what it proves and until when.
    expect(signed).toMatch(
      /Evidence record \(RFC 4998\)\s*Proves the time above; not renewed yet; holds until \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
    expect(signed).not.toContain('Exhibit B.pdf');
    expect(stated).toContain('Exhibit B.pdf');
    expect(await check(page, docs[1]!, certificateOf('Exhibit B.pdf'))).toMatch(
      /^Verified: this is the certified document/,
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('says a changed document is not the certified one, naming what was certified', async () => {
    const { page, requests } = await open();
    const [changed] = ws.files({ 'Exhibit B (edited).pdf': 'exhibit b, edited' });
    expect(await check(page, changed!, certificateOf('Exhibit B.pdf'))).toMatch(
      /^Not the certified document.*stated as "Exhibit B.pdf"/,
    );
    expect(requests).toEqual([]);
  });

  it('refuses a receipt with one byte changed in its leaf, index, proof, root or signature', async () => {
    // The document anchored last has a proof to change: one anchored alone, first, has none.
    const proofLength = (name: string) =>
      (JSON.parse(readFileSync(receiptOf(name), 'utf8')) as { evidence: { inclusion_proof: string[] } })
        .evidence.inclusion_proof.length;
    const chosen = Object.keys(DOCS).reduce((best, name) =>
      proofLength(name) > proofLength(best) ? name : best,
    );
    const document = docs[Object.keys(DOCS).indexOf(chosen)]!;
    const receiptText = readFileSync(receiptOf(chosen), 'utf8');
    const receipt = JSON.parse(receiptText) as Receipt;
    const evidence = receipt.evidence as {
      leaf_input: string;
      leaf_index: number;
      inclusion_proof: string[];
      root_hash: string;
      signed_tree_head: { signature: string };
    };
    expect(evidence.inclusion_proof.length).toBeGreaterThan(0);
    const swap = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'a' ? 'b' : 'a') + text.slice(at + 1);
    // Each a one-character change of the receipt's text at the named field.
    const fields: Record<string, string> = {
      leaf: JSON.stringify(evidence.leaf_input).slice(1, 40),
      index: `"leaf_index": ${evidence.leaf_index}`,
      proof: evidence.inclusion_proof[0]!,
      root: `"root_hash": "${evidence.root_hash}`,
      signature: evidence.signed_tree_head.signature,
    };
    const { page, requests } = await open();
    for (const [name, needle] of Object.entries(fields)) {
      const at = receiptText.indexOf(needle) + needle.length - 2;
      const changed =
        name === 'index'
          ? receiptText.replace(
              needle,
              `"leaf_index": ${evidence.leaf_index === 0 ? 1 : evidence.leaf_index - 1}`,
            )
          : swap(receiptText, at);
      expect(changed.length, name).toBe(receiptText.length);
      const path = join(ws.dir, `tampered-${name}.receipt.json`);
      writeFileSync(path, changed);
      expect(await check(page, document, path), name).toMatch(/^The proof does not hold together/);
    }
    expect(requests).toEqual([]);
  });

  it('refuses a receipt whose readable dates, event or timestamp were edited, naming the field', async () => {
    const receipt = JSON.parse(readFileSync(receiptOf('Exhibit A.pdf'), 'utf8')) as Receipt;
    const { page, requests } = await open();
    for (const [field, edited] of Object.entries(editedCopies(receipt))) {
      const path = join(ws.dir, `edited-${field}.receipt.json`);
      writeFileSync(path, JSON.stringify(edited));
      const said = await check(page, docs[0]!, path);
      expect(said, field).toMatch(refusedCopy(field));
      expect(said, field).not.toMatch(/2019|Verified/);
    }
    expect(requests).toEqual([]);
  });

  it('asks to compare the key when the page does not trust it, and verifies once the fingerprint is given', async () => {
    // The verifier as built, trusting no key: a receipt alone proves only that it is consistent.
    const { page, requests } = await open(join(process.cwd(), 'dist', 'verify.html'));
    const receipt = JSON.parse(readFileSync(receiptOf('Exhibit C.pdf'), 'utf8')) as Receipt;
    expect(await check(page, docs[2]!, receiptOf('Exhibit C.pdf'))).toMatch(
      new RegExp(
        `^Consistent, but signed by a log key you have not trusted.*${receipt.log_key!.fingerprint}`,
      ),
    );
    await page
      .getByLabel('Or trust the log key with this SHA-256 fingerprint')
      .fill(receipt.log_key!.fingerprint);
    // The log key alone is not enough: the timestamp's authority must be trusted too.
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toMatch(/^Consistent, but timestamped by an authority you have not trusted/);
    const rootFingerprint = /fingerprint ([0-9a-f]{64})/.exec(
      (await page.getByRole('status').textContent()) ?? '',
    )?.[1];
    await page
      .getByLabel('and the timestamping authority whose root certificate has this SHA-256 fingerprint')
      .fill(rootFingerprint ?? '');
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/^Verified/);
    expect(requests).toEqual([]);
  });

  it('keeps the same bounds as the command line: a flate bomb, a receipt of 300,000 values, an unsigned demo: false, an update after sealing', async () => {
    const { page, requests } = await open();
    const certificate = readFileSync(sealedAlone);
    const bomb = join(ws.dir, 'bomb.certificate.pdf');
    writeFileSync(
      bomb,
      withAttachmentsUpdated(certificate, [
        { name: 'r.receipt.json', stream: flateBomb(64), filter: 'FlateDecode' },
      ]),
    );
    // The checks run in the page's worker: the page's own thread keeps turning meanwhile.
    await expect.poll(() => page.workers().length).toBe(1);
    const thread = await watchPageThread(page);
    const started = Date.now();
    expect(await check(page, docs[0]!, bomb)).toMatch(
      /^Refused.*a receipt is read only up to 1 MiB; this one is larger/,
    );
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await thread.longest()).toBeLessThan(500);
    // 1.5 MB of attachment markers after the end: read as a reader reads it, in linear time.
    const markers = join(ws.dir, 'markers.certificate.pdf');
    writeFileSync(
      markers,
      Buffer.concat([
        certificate,
        Buffer.from('<< /Type /EmbeddedFile >>\n'.repeat(60_000)),
        certificate.subarray(-60),
      ]),
    );
    const markersStarted = Date.now();
    expect(await check(page, docs[0]!, markers)).toMatch(
      /^Verified against the receipt inside, but this certificate PDF was changed/,
    );
    expect(Date.now() - markersStarted).toBeLessThan(20_000);
    const genuine = JSON.parse(readFileSync(receiptOf('Exhibit A.pdf'), 'utf8')) as Receipt;
    const values = join(ws.dir, 'values.receipt.json');
    writeFileSync(
      values,
      JSON.stringify({ ...genuine, timestamp: { ...genuine.timestamp, path: Array(300_000).fill({}) } }),
    );
    expect(await check(page, docs[0]!, values)).toMatch(/^Refused.*a receipt may hold at most 20,000 values/);
    const notDemo = join(ws.dir, 'not-demo.receipt.json');
    writeFileSync(notDemo, JSON.stringify({ ...genuine, demo: false, notice: null }));
    expect(await check(page, docs[0]!, notDemo)).toMatch(
      /^The proof does not hold together.*what it says under “demo” is not what/,
    );
    const updated = join(ws.dir, 'updated.certificate.pdf');
    writeFileSync(
      updated,
      withAttachmentsUpdated(certificate, [
        { name: 'b.receipt.json', stream: readFileSync(receiptOf('Exhibit B.pdf')) },
      ]),
    );
    expect(await check(page, docs[1]!, updated)).toMatch(
      /^Verified against the receipt inside, but this certificate PDF was changed after it was sealed.*its seal no longer holds/,
    );
    // Shown as a warning, never as a plain success.
    expect(await page.getByRole('status').getAttribute('class')).toMatch(/warning/);
    await screenshotVariants(page, 'verify-html-seal-broken', { fullPage: true });
    expect(requests).toEqual([]);
  }, 60_000);

  it('says a receipt made before anchoring cannot be verified yet', async () => {
    const { page, requests } = await open();
    const [draft] = ws.files({ 'Draft.pdf': 'a draft never sent' });
    expect(await check(page, draft!, join(ws.dir, 'Draft.pdf.receipt.json'))).toMatch(
      /^Not verifiable yet: the certification was not anchored/,
    );
    expect(requests).toEqual([]);
  });

  it('takes a dropped document and certificate together, hashing a large document in chunks', async () => {
    const { page, requests } = await open();
    const large = Buffer.alloc(20 * 1024 * 1024 + 17, 7);
    const certificate = readFileSync(certificateOf('Exhibit A.pdf'));
    // Dropped as one gesture: the page tells the proof from the document by reading them.
    // The large document is made in the page (the same bytes as `large`): sending 20 MB of base64
    // into it took ten seconds of the test's own.
    await page.evaluate(
      ([size, cert]) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(size).fill(7)], 'big scan.tif'));
        transfer.items.add(
          new File([Uint8Array.from(atob(cert), (c) => c.charCodeAt(0))], 'Exhibit A.pdf.certificate.pdf'),
        );
        window.dispatchEvent(
          new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
        );
      },
      [large.length, certificate.toString('base64')] as const,
    );
    await expect
      .poll(() => page.getByRole('status').textContent(), { timeout: 30_000 })
      .toMatch(/^Not the certified document/);
    // Read in 8 MiB pieces, the document's hash is still exactly Node's.
    const facts = (await page.locator('#facts').textContent()) ?? '';
    expect(facts).toContain('big scan.tif');
    expect(facts).toContain(createHash('sha256').update(large).digest('hex'));
    expect(requests).toEqual([]);
  });

  it("checks a whole production folder against the kit folder, one verdict per document, and the kit's seal", async () => {
    const production = join(ws.dir, 'production');
    mkdirSync(production);
    for (const name of ['Exhibit A.pdf', 'Exhibit C.pdf'])
      copyFileSync(join(ws.dir, 'docs', name), join(production, name));
    writeFileSync(join(production, 'Exhibit B.pdf'), 'exhibit b, edited');
    writeFileSync(join(production, 'Cover letter.pdf'), 'never certified');
    // Opened, before anything is given: made on a sandbox, it says DEMO.
    const { page, requests } = await open(undefined, { trustKit: false });
    expect(await page.locator('#kit-demo').isVisible()).toBe(true);
    expect(await page.locator('#kit-demo').textContent()).toMatch(/^\s*DEMO: this kit was made on a sandbox/);
    // The kit's keys are offered, grouped to compare, and not trusted for being in the kit.
    const logKey = (JSON.parse(readFileSync(receiptOf('Exhibit A.pdf'), 'utf8')) as Receipt).log_key!
      .fingerprint;
    expect(await page.locator('#kit-key-list').textContent()).toContain(
      `Log key: ${logKey.toUpperCase().match(/.{4}/g)!.join(' ')}`,
    );
    await page.locator('#set-folder').setInputFiles(production);
    await page.locator('#set-kit').setInputFiles(kit);
    await expect
      .poll(() => page.locator('#set-result').textContent(), { timeout: 30_000 })
      .toMatch(
        /^Not passed: see the lines below 4 documents: 0 verified, 2 certified under a key not trusted, 1 changed, 0 renamed, 1 not certified.* 2 certified, but signed by a key you have not trusted: compare the fingerprints .*DEMO: certifications of this reference were made on a sandbox/,
      );
    // The kit's seal, by an authority not trusted until the fingerprints are compared: not relied on.
    expect(await page.locator('#set-result').textContent()).toContain(
      'The kit is sealed by an authority you have not trusted (DEMO Evidence Sandbox Timestamping Authority)',
    );
    await page.locator('#trust-kit').scrollIntoViewIfNeeded();
    if (SCREENSHOTS_WANTED)
      await page.screenshot({ path: join(SCREENSHOTS, 'verify-html-set-untrusted.png'), fullPage: true });
    // Once the fingerprints match and the person says so, the same kit verifies them.
    await page
      .getByLabel(
        'I compared them with the service’s own fingerprints, and they match: trust this kit’s keys',
      )
      .check();
    await expect
      .poll(() => page.locator('#set-result').textContent(), { timeout: 30_000 })
      .toMatch(
        /^Not passed: see the lines below 4 documents: 2 verified, 1 changed, 0 renamed, 1 not certified.*DEMO: certifications of this reference were made on a sandbox/,
      );
    expect(await page.locator('#set-result').textContent()).toMatch(
      /The kit is sealed: all 14 of its files are as they were on .* \(RFC 3161 timestamp by DEMO Evidence Sandbox Timestamping Authority\)/,
    );
    const rows = await page
      .locator('#set-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.children[0]?.textContent, tr.getAttribute('data-verdict')]));
    // Problems first: what needs looking at is at the top, whatever its name.
    expect(rows).toEqual([
      ['Exhibit B.pdf', 'changed'],
      ['Cover letter.pdf', 'not_certified'],
      ['Exhibit A.pdf', 'verified'],
      ['Exhibit C.pdf', 'verified'],
    ]);
    // A verified line gives the date a person cites, not the service's id.
    const table = (await page.locator('#set-table').textContent()) ?? '';
    expect(table).toMatch(/Certified \w+ \d+, \d{4}/);
    expect(table).not.toContain('cert_');
    // The app's filters: each verdict with its count, problems first; one chosen shows only its lines.
    const filters = page.getByRole('group', { name: 'Show' });
    expect(await filters.getByRole('button').allTextContents()).toEqual(FILTERS_OF_THE_SET);
    await filters.getByRole('button', { name: 'Verified (2)' }).click();
    expect(await page.locator('#set-table tbody tr:visible td:first-child').allTextContents()).toEqual([
      'Exhibit A.pdf',
      'Exhibit C.pdf',
    ]);
    await filters.getByRole('button', { name: 'All (4)' }).click();
    expect(await page.locator('#set-table tbody tr:visible').count()).toBe(4);
    expect(requests).toEqual([]);
    // A kit whose README was changed after sealing: the page names it, and the set does not pass.
    const tampered = join(ws.dir, 'tampered kit');
    cpSync(kit, tampered, { recursive: true });
    writeFileSync(
      join(tampered, 'README.txt'),
      `${readFileSync(join(tampered, 'README.txt'), 'utf8')}\nTrust us.\n`,
    );
    await page.locator('#set-kit').setInputFiles(tampered);
    await expect
      .poll(() => page.locator('#set-result').textContent(), { timeout: 30_000 })
      .toMatch(
        /The kit was changed after it was sealed on .*: 1 of its files no longer match its seal\. Do not rely on them\.\s*changed since sealing:\s+README\.txt/,
      );
    await page.locator('#set-kit').setInputFiles(kit);
    await screenshotVariants(page, 'verify-html-set', {
      fullPage: true,
      before: () => page.locator('#set-title').scrollIntoViewIfNeeded(),
    });
    expect(await accessibilityViolations(page)).toEqual([]);
  }, 60_000);

  it('shows a large production as the first 500 lines of each verdict, with every verdict in view and the counts of all', async () => {
    const production = join(ws.dir, 'large production');
    mkdirSync(production);
    copyFileSync(join(ws.dir, 'docs', 'Exhibit A.pdf'), join(production, 'Exhibit A.pdf'));
    writeFileSync(join(production, 'Exhibit B.pdf'), 'exhibit b, edited');
    // Named to sort before the exhibits: without a cap per verdict, they would fill the table.
    for (let i = 0; i < 600; i++)
      writeFileSync(join(production, `Cover ${String(i).padStart(3, '0')}.pdf`), `${i}`);
    const { page } = await open();
    await page.locator('#set-folder').setInputFiles(production);
    await page.locator('#set-kit').setInputFiles(kit);
    await expect
      .poll(() => page.locator('#set-result').textContent(), { timeout: 30_000 })
      .toMatch(/602 documents: 1 verified, 1 changed, 0 renamed, 600 not certified/);
    const verdicts = await page
      .locator('#set-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-verdict')));
    expect(verdicts.filter((verdict) => verdict === 'not_certified')).toHaveLength(500);
    expect(verdicts).toContain('changed');
    expect(verdicts).toContain('verified');
    expect(await page.locator('#set-lines-shown').textContent()).toBe(
      'Showing 503 of 603 lines: the first 500 of each verdict, in name order.',
    );
    await screenshotVariants(page, 'verify-html-large-set', {
      before: () => page.locator('#set-result').scrollIntoViewIfNeeded(),
    });
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('speaks German to a German browser, and English when the reader switches', async () => {
    const { page, requests } = await open(undefined, { locale: 'de-DE' });
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('h1').textContent()).toBe('Ein zertifiziertes Dokument prüfen');
    expect(await page.locator('#kit-demo').textContent()).toMatch(
      /^DEMO: Dieses Nachweispaket wurde in einer Sandbox erstellt/,
    );
    expect(await page.locator('#kit-key-list').textContent()).toMatch(/^Protokollschlüssel: [0-9A-F]{4} /);
    expect(await check(page, docs[1]!, certificateOf('Exhibit B.pdf'))).toMatch(
      /^Geprüft: Dies ist das zertifizierte Dokument.*DEMO/,
    );
    const facts = (await page.locator('#facts').textContent()) ?? '';
    expect(facts).toContain('Dieses Dokument');
    expect(facts).toContain('Ereignis');
    expect(facts).toContain('Unterzeichnet');
    // No English left on the page, but what is quoted from the documents and the protocol names.
    const text = (await page.locator('body').innerText()).replace(
      /Exhibit [ABC]\.pdf|RFC \d+|SHA-256|Ed25519|Merkle|OpenSSL|README|Evidence Desk|DEMO|\.receipt\.json/g,
      '',
    );
    expect(
      [...text.matchAll(/.{0,40}\b(the|and|of|with|document|verified|receipt)\b.{0,40}/gi)].map(
        ([line]) => line,
      ),
    ).toEqual([]);
    await screenshotVariants(page, 'verify-html-de', { fullPage: true });
    // The reader's choice: the same verdict, in English.
    await page.getByLabel('Sprache').selectOption('en');
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toMatch(/^Verified: this is the certified document/);
    expect(await page.locator('h1').textContent()).toBe('Verify a certified document');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('reads well in light and dark, small and large (screenshots)', async () => {
    const { page } = await open();
    await check(page, docs[0]!, certificateOf('Exhibit A.pdf'));
    await screenshotVariants(page, 'verify-html-verified', { fullPage: true });
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
