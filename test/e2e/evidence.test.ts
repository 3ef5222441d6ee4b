import { withAttachmentsUpdated } from '../support/hostile';
import { DEFAULT_TIMESTAMP_PACING } from '../../main/timestamps/timestamp-engine';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ItPolicy } from '../../main/desktop-policy/it-policy';
import type { Receipt } from '../../protocol/receipt';
import { de } from '../../protocol/locales/de';
import { en } from '../../protocol/locales/en';
import type { Sandbox } from '../../sandbox/server';
import { METADATA, openCore, useSandboxProfile } from '../support/core';
import { editedCopies, refusedCopy } from '../support/edited-receipts';
import { startOpensslTsa } from '../support/openssl-tsa';
import { startTestSandbox } from '../support/sandbox';
import type { Harness } from './harness';
import { accessibilityViolations, harnessPerTest, screenshotVariants } from './harness';

// Evidence leaving the app and coming back: Save evidence… and Verify…, in Chromium on the real
// core. The native folder dialog is a stand-in (harness.ts): it "chooses" <workspace>/saved.
const harnesses = harnessPerTest();

async function certified(harness: Harness, files: Record<string, string>): Promise<string[]> {
  const paths = harness.ws.files(files);
  await harness.drop(paths);
  await harness.page.getByRole('button', { name: 'Certify' }).click();
  await expect
    .poll(() => harness.page.locator('[role="row"] .badge').allTextContents(), { timeout: 20_000 })
    .toEqual(Object.keys(files).map(() => 'Anchored ✓ verified'));
  return paths;
}

const savedKits = (harness: Harness) => {
  const saved = join(harness.ws.dir, 'saved');
  return existsSync(saved)
    ? readdirSync(saved)
        .filter((name) => name.startsWith('Evidence kit'))
        .map((name) => join(saved, name))
    : [];
};

describe('saving and verifying evidence in the app', () => {
  it('saves the certificate of one certification on its own, its kit, and the kit of everything the list shows, each with Open folder', async () => {
    const harness = await harnesses.start({ core: { embeddedSandbox: { batchIntervalMs: 200 } } });
    const { page } = harness;
    const [lease] = await certified(harness, { 'Lease agreement.pdf': 'lease', 'Annex 1.pdf': 'annex' });

    await page.getByRole('button', { name: 'Lease agreement.pdf', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'Lease agreement.pdf' });
    await expect.poll(() => details.textContent()).toMatch(/DEMO — made on a sandbox/);
    // The PDF a lawyer attaches to an email: one file, the receipt inside it.
    await details.getByRole('button', { name: 'Save certificate (PDF)…' }).click();
    const certificate = join(harness.ws.dir, 'saved', 'Lease agreement.pdf.certificate.pdf');
    await expect
      .poll(() => page.locator('.notice').textContent())
      .toContain(`Saved the certificate of Lease agreement.pdf as ${certificate}.`);
    const text = execFileSync('pdftotext', ['-layout', certificate, '-']).toString();
    expect(text).toContain('Lease agreement.pdf');
    expect(text).toContain(createHash('sha256').update('lease').digest('hex').slice(0, 32));
    await harness.screenshotEverywhere('details-certificate-saved');
    await page.getByRole('button', { name: 'Open folder' }).click();
    await expect.poll(() => harness.shownInFolder).toEqual([certificate]);
    // The certificate alone verifies its document.
    expect(await harness.core.verification.verifyDocument(lease!, certificate)).toMatchObject({
      kind: 'proof',
      verdict: { verdict: 'verified' },
      demo: true,
    });
    // Dragged out onto the desktop or into an email: the files the system's drag and drop carries.
    await details.getByText('Certificate (PDF)', { exact: true }).dispatchEvent('dragstart');
    await details.getByText('Receipt (JSON)', { exact: true }).dispatchEvent('dragstart');
    await expect
      .poll(() => harness.dragged.map((path) => basename(path)).sort())
      .toEqual(['Lease agreement.pdf.certificate.pdf', 'Lease agreement.pdf.receipt.json']);
    // Each is made in a temporary folder of its own: told apart by name, not by the folders' order.
    const pdf = harness.dragged.find((path) => path.endsWith('.pdf'));
    const receipt = harness.dragged.find((path) => path.endsWith('.json'));
    expect(readFileSync(pdf!).subarray(0, 5).toString()).toBe('%PDF-');
    expect(JSON.parse(readFileSync(receipt!, 'utf8'))).toMatchObject({
      file: { name: 'Lease agreement.pdf', sha256: createHash('sha256').update('lease').digest('hex') },
    });
    // Only what this window saved is shown: no other path reaches the file manager.
    expect(await page.evaluate(() => window.evidenceDesk.showSaved({ path: '/etc' }))).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });

    await details.getByRole('button', { name: 'Save evidence…' }).click();
    await expect
      .poll(() => details.locator('.notice').textContent())
      .toMatch(/Saved the evidence of 1 certification in/);
    const [one] = savedKits(harness);
    await details.getByRole('button', { name: 'Open folder' }).click();
    await expect.poll(() => harness.shownInFolder.at(-1)).toBe(one);
    expect(readdirSync(join(one!, 'certifications')).sort()).toEqual([
      'Lease agreement.pdf.certificate.pdf',
      'Lease agreement.pdf.ers',
      'Lease agreement.pdf.receipt.json',
    ]);
    await details.getByRole('button', { name: 'Close' }).click();

    const kitProgress: { done: number; total: number }[] = [];
    harness.core.on('kitProgress', (progress) => kitProgress.push(progress));
    await page.getByRole('button', { name: 'Save evidence…' }).click();
    await expect
      .poll(() => page.locator('main').textContent())
      .toMatch(/Saved the evidence of 2 certifications in/);
    expect(savedKits(harness)).toHaveLength(2);
    // The window heard how far the kit was, then that it was sealed, and the bar went with the save.
    expect(kitProgress.at(-1)).toEqual({ done: 2, total: 2, sealingUntil: null });
    await expect.poll(() => page.locator('.progress').count()).toBe(0);

    // A kit of thousands, as the window shows it while certificates are made, then the register.
    harness.core.emit('kitProgress', { done: 1234, total: 10_000 });
    const bar = page.locator('.progress label');
    await expect.poll(() => bar.textContent()).toBe('Saving the evidence: certificate 1,234 of 10,000');
    expect(await bar.locator('progress').evaluate((p: HTMLProgressElement) => p.value / p.max)).toBe(0.1234);
    // After a few seconds, the time left at the pace so far (no guess before).
    await new Promise((resolve) => setTimeout(resolve, 3100));
    harness.core.emit('kitProgress', { done: 1240, total: 10_000 });
    await expect
      .poll(() => bar.textContent())
      .toMatch(
        /^Saving the evidence: certificate 1,240 of 10,000 · about \d+ (hours?|minutes)( \d+ minutes)? left$/,
      );
    await harness.screenshotEverywhere('desk-saving-kit');
    harness.core.emit('kitProgress', { done: 10_000, total: 10_000 });
    await expect
      .poll(() => bar.textContent())
      .toBe('Saving the evidence: all 10,000 certificates are made; writing the register');
    // Then sealed with one timestamp; one that waits for its authority's pace says until when.
    harness.core.emit('kitProgress', { done: 10_000, total: 10_000, sealingUntil: null });
    await expect.poll(() => bar.textContent()).toBe('Saving the evidence: sealing it with one timestamp');
    harness.core.emit('kitProgress', {
      done: 10_000,
      total: 10_000,
      sealingUntil: Date.parse('2026-11-26T09:41:00Z'),
    });
    await expect
      .poll(() => bar.textContent())
      .toMatch(
        /^Saving the evidence: sealing it with one timestamp, once the timestamping authority’s pace allows, at .*10:41/,
      );
    await harness.screenshotEverywhere('desk-sealing-kit-waiting');

    // Cancel while the folder is still being chosen: the kit stops, says so, and leaves nothing of
    // itself. (A kit of two is written in milliseconds: Cancel has to come before its folder.)
    const before = savedKits(harness).length;
    const dialog = harness.holdFolderChoice();
    const saving = page.evaluate(() => window.evidenceDesk.exportEvidence({}));
    await dialog.opened;
    await page.evaluate(() => window.evidenceDesk.cancelExport({}));
    dialog.choose();
    const stopped = await saving;
    expect(stopped).toMatchObject({
      ok: false,
      error: {
        code: 'cancelled',
        message: 'Saving the evidence was stopped before it finished: nothing of it was kept.',
      },
    });
    expect(savedKits(harness)).toHaveLength(before);
    // The bar's Cancel, when main cannot do it, says why: never a click that does nothing.
    harness.failCalls(['cancelExport']);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText('Evidence Desk could not read its queue.').waitFor();
    harness.failCalls([]);
  }, 60_000);

  it('verifies a dropped document against this computer, a changed one, and one with its certificate or a tampered receipt', async () => {
    const harness = await harnesses.start({ core: { embeddedSandbox: { batchIntervalMs: 200 } } });
    const { page } = harness;
    const [contract] = await certified(harness, { 'Purchase contract.pdf': 'the contract as signed' });
    await page.getByRole('button', { name: 'Save evidence…' }).click();
    await expect.poll(() => savedKits(harness).length).toBe(1);
    const kit = join(savedKits(harness)[0]!, 'certifications');

    await page.getByRole('button', { name: 'Verify…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify a document' });
    const verdict = dialog.getByRole('status');
    await harness.drop([contract!]);
    await expect
      .poll(() => verdict.textContent())
      .toMatch(/^Verified: this document is certified hereCertified as “Purchase contract.pdf”/);

    // The same name, other content: a later edit of the certified file.
    const [edited] = harness.ws.files({
      'edited/Purchase contract.pdf': 'the contract, edited after signing',
    });
    await harness.drop([edited!]);
    await expect
      .poll(() => verdict.textContent())
      .toMatch(
        /^Not the certified versionA file named “Purchase contract.pdf” was certified on .*, but its content has changed since/,
      );

    // With its certificate: the check any other computer would make.
    await harness.drop([contract!, join(kit, 'Purchase contract.pdf.certificate.pdf')]);
    await expect
      .poll(() => verdict.textContent())
      .toMatch(
        /^Verified: this is the certified documentThis is exactly the certified content for the event “Signed”.*Time confirmed by DEMO Evidence Sandbox Timestamping Authority.*DEMO: this certification was made on a sandbox/,
      );
    // What was signed, and apart what only the receipt says: the name is never among the signed facts.
    const signed = dialog.getByRole('region', { name: 'Signed', exact: true });
    const stated = dialog.getByRole('region', { name: 'Stated by whoever made this receipt, not signed' });
    expect(await signed.textContent()).toMatch(
      /Certified at.*Anchored at.*Time confirmed.*DEMO Evidence Sandbox Timestamping Authority/,
    );
    expect(await signed.textContent()).not.toContain('Purchase contract.pdf');
    expect(await stated.textContent()).toContain('Purchase contract.pdf');
    expect(await stated.textContent()).toMatch(/Certified by\S+ on \S+/);
    await screenshotVariants(page, 'screen-verify-verified');
    expect(await accessibilityViolations(page)).toEqual([]);

    // A certificate changed after sealing (an update a PDF editor appended): never a plain success.
    const updated = join(harness.ws.dir, 'updated.certificate.pdf');
    writeFileSync(
      updated,
      withAttachmentsUpdated(readFileSync(join(kit, 'Purchase contract.pdf.certificate.pdf')), [
        {
          name: 'Purchase contract.pdf.receipt.json',
          stream: readFileSync(join(kit, 'Purchase contract.pdf.receipt.json')),
        },
      ]),
    );
    await harness.drop([contract!, updated]);
    await expect
      .poll(() => verdict.textContent())
      .toMatch(
        /^Verified against the receipt inside, but this certificate PDF was changed after it was sealed.*its seal no longer holds/,
      );
    await screenshotVariants(page, 'screen-verify-seal-broken');

    const receipt = JSON.parse(readFileSync(join(kit, 'Purchase contract.pdf.receipt.json'), 'utf8'));
    receipt.evidence.root_hash = `${receipt.evidence.root_hash[0] === 'a' ? 'b' : 'a'}${receipt.evidence.root_hash.slice(1)}`;
    const tampered = join(harness.ws.dir, 'tampered.receipt.json');
    writeFileSync(tampered, JSON.stringify(receipt));
    await harness.drop([tampered]);
    await expect
      .poll(() => verdict.textContent())
      .toMatch(/^The proof does not hold togetherThe receipt was altered or damaged/);
    await page.emulateMedia({ colorScheme: 'light' });
    await harness.screenshot('screen-verify-tampered-light-large');

    // A genuine receipt whose readable copies were edited: each is refused, naming the field.
    const genuine = JSON.parse(
      readFileSync(join(kit, 'Purchase contract.pdf.receipt.json'), 'utf8'),
    ) as Receipt;
    for (const [field, edited] of Object.entries(editedCopies(genuine))) {
      const path = join(harness.ws.dir, `edited-${field}.receipt.json`);
      writeFileSync(path, JSON.stringify(edited));
      await harness.drop([contract!, path]);
      await expect.poll(() => verdict.textContent(), { message: field }).toMatch(refusedCopy(field));
      expect(await verdict.textContent(), field).not.toMatch(/2019|Verified/);
    }
    await harness.screenshot('screen-verify-edited-date-light-large');
  }, 60_000);

  it('explains a different document, a receipt from a log this computer never trusted, and one not yet anchored', async () => {
    // Receipts made elsewhere: another data folder with its own embedded sandbox (its own log key).
    const elsewhere = join(tmpdir(), `evidence-elsewhere-${process.pid}-${Date.now()}`);
    const other = await openCore(elsewhere, { embeddedSandbox: { batchIntervalMs: 200 } });
    const foreignDoc = join(elsewhere, 'Memo.pdf');
    const draftDoc = join(elsewhere, 'Draft.pdf');
    const foreign = join(elsewhere, 'Memo.pdf.receipt.json');
    const pending = join(elsewhere, 'Draft.pdf.receipt.json');
    try {
      writeFileSync(foreignDoc, 'a memo certified on another computer');
      writeFileSync(draftDoc, 'a draft');
      const { queued } = await other.certify([foreignDoc], METADATA);
      const [row] = await other.sync.waitUntilSettled(queued);
      writeFileSync(foreign, JSON.stringify(other.exports.receipt(row!.id)));
    } finally {
      await other.close();
    }
    const offline = await openCore(join(elsewhere, 'offline'), { sync: false });
    try {
      const [row] = offline.queue.rows((await offline.certify([draftDoc], METADATA)).queued);
      writeFileSync(pending, JSON.stringify(offline.exports.receipt(row!.id)));
    } finally {
      await offline.close();
    }
    try {
      const harness = await harnesses.start({ core: { sync: false } });
      const { page } = harness;
      await page.getByRole('button', { name: 'Verify…' }).click();
      const verdict = page.getByRole('dialog', { name: 'Verify a document' }).getByRole('status');
      await harness.drop([foreignDoc, foreign]);
      await expect
        .poll(() => verdict.textContent())
        .toMatch(/^Consistent, but signed by a log key you have not trustedThe receipt is consistent/);
      const [unrelated] = harness.ws.files({ 'Unrelated.pdf': 'something else entirely' });
      await harness.drop([unrelated!, foreign]);
      await expect
        .poll(() => verdict.textContent())
        .toMatch(/^Not the certified documentThis is not the certified file/);
      await harness.drop([draftDoc, pending]);
      await expect
        .poll(() => verdict.textContent())
        .toMatch(/^Not verifiable yet: the certification was not anchored/);
      await harness.screenshot('screen-verify-not-anchored-light-large');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 60_000);

  it("warns when the service's log key changed, and checks again once the person trusts the new key", async () => {
    const services: Sandbox[] = [];
    const harness = await harnesses.start({
      core: { embeddedSandbox: { batchIntervalMs: 200 } },
      before: async (core, ws) => {
        for (let i = 0; i < 2; i++) services.push(await startTestSandbox({ batchIntervalMs: 100 }));
        await useSandboxProfile(core, services[0]!, 'firm');
        const { queued } = await core.certify(ws.files({ 'before.pdf': 'before' }), {
          asset_type: 'document',
          source_system: 'tests',
          event_type: 'DOCUMENT_SIGNED',
        });
        await core.sync.waitUntilSettled(queued);
        await useSandboxProfile(core, services[1]!, 'firm');
      },
    });
    try {
      const { page } = harness;
      await harness.drop(harness.ws.files({ 'after.pdf': 'after the move' }));
      await page.getByRole('button', { name: 'Certify' }).click();
      const banner = page.getByRole('alert').filter({ hasText: 'signs with a different key' });
      await banner.waitFor({ timeout: 20_000 });
      // What is at stake, who to ask, and the fingerprint in groups a person compares.
      const said = (await banner.textContent()) ?? '';
      expect(said).toContain('ask your IT department');
      expect(said).toContain(services[1]!.logKey.keyId.toUpperCase().match(/.{4}/g)!.join(' '));
      await harness.screenshotEverywhere('screen-log-key-changed');
      // Trusting it is a second, deliberate step.
      await banner.getByRole('button', { name: 'Trust the new key…' }).click();
      expect(await banner.textContent()).toContain('Trust it only if every group above matches');
      await harness.screenshotEverywhere('screen-log-key-confirm');
      await banner.getByRole('button', { name: 'It matches: trust the new key' }).click();
      await banner.waitFor({ state: 'detached' });
      await expect
        .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 10_000 })
        .toEqual(['Anchored ✓ verified', 'Anchored ✓ verified']);
    } finally {
      for (const service of services) await service.stop();
    }
  }, 60_000);
});

describe('independent time in the app', () => {
  it('chooses a timestamping authority in Settings, says what is missing, and the details say who confirmed the time', async () => {
    const tsaDir = mkdtempSync(join(tmpdir(), 'evidence-e2e-tsa-'));
    const tsa = await startOpensslTsa(tsaDir);
    const service = await startTestSandbox({ batchIntervalMs: 100 });
    try {
      // A seal that waits is asked again after 1 s here, not the 10 s a person's app waits.
      const harness = await harnesses.start({
        core: { timestampPacing: { ...DEFAULT_TIMESTAMP_PACING, firstRetryMs: 1_000, capMs: 4_000 } },
      });
      const { page } = harness;
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      const settings = page.getByRole('dialog', { name: 'Settings' });
      expect(await settings.textContent()).toContain('The demo sandbox confirms each batch’s time');
      const client = service.createClient();
      await settings.getByLabel('Environment').selectOption('custom');
      await settings.getByLabel('Profile name (lower case)').fill('with-time');
      await settings.getByLabel('Service address (base URL)').fill(service.baseUrl);
      await settings.getByLabel('Token address (token URL)').fill(service.tokenUrl);
      await settings.getByLabel('Client id').fill(client.clientId);
      await settings.getByLabel('Client secret').fill(client.clientSecret);
      await settings.getByLabel('Have a timestamping authority confirm the time of each batch').check();
      // The suggestions are addresses only; the root to trust is the user's to give.
      const suggested = await settings
        .locator('datalist option')
        .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
      expect(suggested).toContain('http://timestamp.digicert.com');
      // A well-known authority brings the pace it publishes (Sectigo: 15 s between requests).
      const interval = settings.getByLabel('Least time between two requests (seconds)');
      await settings.getByLabel('Authority address').fill('http://timestamp.sectigo.com');
      expect(await interval.inputValue()).toBe('15');
      await interval.fill('-3');
      await settings.getByLabel('Authority address').fill(tsa.url);
      await settings.getByRole('button', { name: 'Save' }).click();
      const rootsField = settings.getByLabel('Root certificate(s) to trust it by (PEM)');
      await expect
        .poll(() =>
          rootsField.evaluate(
            (input) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent,
          ),
        )
        .toBe('Paste the authority’s root certificate (PEM, starting -----BEGIN CERTIFICATE-----).');
      expect(
        await interval.evaluate((input) =>
          input
            .getAttribute('aria-describedby')
            ?.split(' ')
            .map((id) => document.getElementById(id)?.textContent)
            .join(' '),
        ),
      ).toContain('Enter a whole number of seconds, from 0 to 86400');
      await harness.screenshotEverywhere('desk-settings-timestamp-authority');
      await interval.fill('1');
      expect(await accessibilityViolations(page)).toEqual([]);
      await rootsField.fill(tsa.rootPem);
      await settings.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => settings.getByRole('status').textContent()).toBe('Saved.');
      await settings.getByRole('button', { name: 'Close' }).click();

      // The authority's CRL is away: the time is confirmed, and what proves it later is said missing.
      tsa.statusDown = true;
      await certified(harness, { 'Board minutes.pdf': 'minutes of the board' });
      // The list says each row's independent time beside its state, the whole sentence on hover.
      const mark = page.locator('.list-row', { hasText: 'Board minutes.pdf' }).locator('.time-mark');
      const missing =
        /^The information that lets anyone check this time after the authority’s certificate expires has not been collected yet: the status service at 127\.0\.0\.1:\d+ answered HTTP 503\. Evidence Desk will try again later\.$/;
      await expect
        .poll(() => mark.getAttribute('title'), { timeout: 15_000 })
        .toMatch(
          /^Time confirmed by tsa-signer \(RFC 3161 timestamp\)\. The information that lets anyone check this time/,
        );
      expect(await mark.textContent()).toMatch(
        /^time confirmed: Time confirmed by tsa-signer \(RFC 3161 timestamp\)\./,
      );
      await harness.screenshotEverywhere('desk-list-time-confirmed');
      await page.getByRole('button', { name: 'Board minutes.pdf', exact: true }).click();
      const details = page.getByRole('dialog', { name: 'Board minutes.pdf' });
      await expect
        .poll(() => details.textContent(), { timeout: 15_000 })
        .toMatch(/Time confirmed.*by tsa-signer \(RFC 3161 timestamp\)/);
      expect(await details.locator('.time-standing').textContent()).toMatch(missing);
      await harness.screenshotEverywhere('desk-details-time-confirmed');
      tsa.statusDown = false;
      expect(tsa.requests).toBe(1);

      // The authority refuses the certificate's seal: nothing is saved unsealed unasked. The seal
      // waits, the notice says why and until when, and saving it unsealed now is offered.
      tsa.behaviour = 'rejection';
      await details.getByRole('button', { name: 'Save certificate (PDF)…' }).click();
      const notice = page.locator('.notice');
      await expect
        .poll(() => notice.textContent())
        .toMatch(
          /^The certificate of “Board minutes\.pdf” is not saved yet: it could not be sealed: .*rejected the request.* saves the sealed certificate where you chose when it answers; next try: \d+ November/,
        );
      const certificate = join(harness.ws.dir, 'saved', 'Board minutes.pdf.certificate.pdf');
      expect(existsSync(certificate)).toBe(false);
      await harness.screenshotEverywhere('desk-certificate-seal-waiting');
      // Once the authority answers, the sealed certificate is written where the person chose.
      tsa.behaviour = 'good';
      await expect.poll(() => existsSync(certificate), { timeout: 20_000 }).toBe(true);
      expect(readFileSync(certificate, 'latin1')).toContain('/DocTimeStamp');
      rmSync(certificate);
      // Refused again, the person saves it unsealed, by choice: the file says so, and the seal that
      // waited is not written over it later.
      tsa.behaviour = 'rejection';
      await details.getByRole('button', { name: 'Save certificate (PDF)…' }).click();
      await expect.poll(() => notice.textContent()).toMatch(/is not saved yet: it could not be sealed/);
      await notice.getByRole('button', { name: 'Save it unsealed' }).click();
      await expect.poll(() => notice.textContent()).toContain('Saved the certificate of Board minutes.pdf');
      expect(execFileSync('pdftotext', [certificate, '-']).toString().replace(/\s+/g, ' ')).toContain(
        'Why: it was saved unsealed, by choice.',
      );
      expect(harness.core.exports.sealsWaiting()).toBeNull();

      // The kit's seal is refused too: the kit is saved whole all the same, and the notice says it
      // is not sealed yet, why, and that Evidence Desk adds the seal when the authority answers.
      await details.getByRole('button', { name: 'Save evidence…' }).click();
      await expect
        .poll(() => notice.textContent())
        .toMatch(
          /Saved the evidence of 1 certification in .* The evidence kit was saved, but it is not sealed yet: .*rejected the request.* adds the seal to the kit when it answers/,
        );
      await harness.screenshotEverywhere('desk-kit-seal-waiting');
    } finally {
      await tsa.close();
      await service.stop();
      rmSync(tsaDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('evidence records in the app', () => {
  it.each([
    ['en-GB', en.app.records],
    ['de-DE', de.app.records],
  ] as const)(
    'says until when the records hold, when they were last renewed, and what needs attention (%s)',
    async (locale, words) => {
      const tsaDir = mkdtempSync(join(tmpdir(), 'evidence-e2e-renewal-'));
      const tsa = await startOpensslTsa(tsaDir, 'short-lived');
      const service = await startTestSandbox({ batchIntervalMs: 100 });
      let ahead = 0;
      // IT's policy, as the core reads it each time: the test retires SHA-256 later.
      const policy: ItPolicy = {
        locked: false,
        trusted: [],
        sourceSystem: null,
        retiredAlgorithms: null,
        renewalMarginDays: null,
      };
      try {
        // The first signer's certificate ends in an hour; records are renewed 30 minutes before.
        const harness = await harnesses.start({
          locale,
          core: {
            itPolicy: policy,
            renewal: { marginMs: 30 * 60_000 },
            clock: () => Date.now() + ahead,
            timestampPacing: { ...DEFAULT_TIMESTAMP_PACING, firstRetryMs: 500, capMs: 1_000 },
          },
          before: (core) =>
            useSandboxProfile(core, service, 'with-time', {
              tsa: { url: tsa.url, trustedCertificates: tsa.rootPem },
            }),
        });
        const { page, core } = harness;
        const { queued } = await core.certify(
          harness.ws.files({ 'Lease agreement.pdf': 'lease', 'Annex 1.pdf': 'annex' }),
          { ...METADATA, matter: 'Lessing ./. Meyer' },
        );
        const ids = queued;
        await expect
          .poll(() =>
            core.queue.rows(ids).every((row) => row.timestampState === 'confirmed' && !row.timestampProblem),
          )
          .toBe(true);
        // A sentence of the catalogue up to its first value, for two documents.
        const lead = (sentence: string) => sentence.replace('{{count}}', '2').split(' {{')[0] as string;
        const line = page.getByTestId('records-line');
        const banner = page.getByTestId('records-banner');
        // Until renewed: until when they hold, and that Evidence Desk renews them before then.
        await page.reload();
        await expect.poll(() => line.textContent()).toContain(lead(words.notRenewedYet_other));
        expect(await banner.count()).toBe(0);

        // Two hours on, not renewed: past their end, they need attention, said as an alert.
        ahead = 120 * 60_000;
        await page.reload();
        await expect.poll(() => banner.textContent()).toContain(lead(words.expired_other));
        expect(await banner.getAttribute('role')).toBe('alert');
        expect(await line.count()).toBe(0);
        await harness.screenshotEverywhere(`records-attention-${locale}`);

        // Renewed in time instead (45 minutes on), by one request to the authority: the line says when and by whom.
        // The authority refuses at first: the renewal waits, and says why.
        ahead = 45 * 60_000;
        tsa.behaviour = 'rejection';
        expect((await core.renewRecords()).opened).toHaveLength(1);
        await page.reload();
        await expect.poll(() => banner.textContent()).toContain(lead(words.waiting_other));
        // The quiet line would say "nothing to do": while a renewal is delayed, the banner speaks.
        expect(await line.count()).toBe(0);
        await harness.screenshot(`records-waiting-${locale}`);
        tsa.behaviour = 'good';
        await expect.poll(() => line.textContent()).toContain('tsa-signer');
        expect(await line.textContent()).toContain(lead(words.renewed_other));
        expect(await banner.count()).toBe(0);
        await harness.screenshotEverywhere(`records-renewed-${locale}`);

        // IT retires SHA-256: records are renewed to SHA-512 from the documents themselves. The annex
        // was moved since: the banner names it under its matter, and the person shows where it is now.
        policy.retiredAlgorithms = ['md5', 'sha1', 'sha256'];
        tsa.signerDigest = 'sha512';
        const annex = core.queue.rows(queued).find((row) => row.fileName === 'Annex 1.pdf')!;
        mkdirSync(join(harness.ws.dir, 'moved'), { recursive: true });
        renameSync(annex.filePath, join(harness.ws.dir, 'moved', 'Annex 1 (final).pdf'));
        expect((await core.renewRecords()).hashTree).toMatchObject({
          renewing: 1,
          missing: [{ fileName: 'Annex 1.pdf' }],
        });
        await page.reload();
        await expect.poll(() => banner.textContent()).toContain(words.notFound_one.replace('{{count}}', '1'));
        expect(await banner.textContent()).toContain(
          words.notFoundMatter.replace('{{matter}}', 'Lessing ./. Meyer').replace('{{names}}', 'Annex 1.pdf'),
        );
        // "Nothing to do" would contradict it: the quiet line gives way.
        expect(await line.count()).toBe(0);
        await harness.screenshotEverywhere(`records-not-found-${locale}`);
        await banner.getByRole('button', { name: words.lookInFolder }).click();
        await expect.poll(() => banner.count()).toBe(0);
        await expect.poll(() => line.textContent()).toContain(lead(words.renewed_other));
      } finally {
        await tsa.close();
        await service.stop();
        rmSync(tsaDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
