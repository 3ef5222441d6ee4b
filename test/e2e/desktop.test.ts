import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, harnessPerTest } from './harness';

// The renderer, built, in Debian's Chromium, on the real core with its embedded sandbox.
const harnesses = harnessPerTest();

const badge = (name: string) => `[role="row"]:has-text("${name}") .badge`;

describe('the desktop app in Chromium', () => {
  it('takes dropped files and a folder, shows them waiting, and brings each to anchored with its verification mark', async () => {
    // Anchoring waits 1.5 s, so the rows are seen on their way before they arrive.
    const harness = await harnesses.start({
      core: { embeddedSandbox: { batchIntervalMs: 300, faults: { anchorDelayMs: 1500 } } },
      firstBatch: true,
    });
    const { page } = harness;
    await page.getByText('Demo environment').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await harness.screenshot('01-empty');

    const [contract, annex] = harness.ws.files({ 'contract.pdf': 'the contract', 'annex.pdf': 'the annex' });
    const folder = join(harness.ws.dir, 'scans');
    mkdirSync(folder);
    writeFileSync(join(folder, 'scan-1.png'), 'scan one');
    writeFileSync(join(folder, 'scan-2.png'), 'scan two');
    await harness.drop([contract!, annex!, folder]);

    const form = page.getByRole('dialog', { name: 'Certify 3 items' });
    await form.waitFor();
    // What is about to be certified, by name.
    expect(await form.getByRole('list', { name: 'The files' }).locator('li').allTextContents()).toEqual([
      'contract.pdf',
      'annex.pdf',
      'scans',
    ]);
    // Asked once, the first time: who is certifying.
    await form.getByLabel('Your name').fill('Jane Doe');
    await form.getByLabel('Your firm').fill('Smith & Partners');
    // What happened is signed into the log: the first batch chooses nothing for the person.
    const event = form.getByLabel('What happened to them');
    expect(await event.locator('option:checked').textContent()).toBe('Choose what happened…');
    expect(await form.getByRole('button', { name: 'Certify' }).isDisabled()).toBe(true);
    // Words a paralegal uses, each the service's code; no code and no source system asked for.
    expect(await form.textContent()).not.toMatch(/DOCUMENT_SIGNED|Source system|evidence-desk/);
    expect(await form.getByLabel('What happened to them').locator('option').allTextContents()).toEqual(
      expect.arrayContaining([
        'Signed',
        'Produced to the other side',
        'Filed with the court',
        'Something else…',
      ]),
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    await harness.screenshotEverywhere('02-batch-form');
    // Something else: the service's code, typed as words, checked as typed.
    await form.getByLabel('What happened to them').selectOption({ label: 'Something else…' });
    await form.getByLabel('The service’s code for what happened').fill('signed!');
    expect(await form.getByRole('button', { name: 'Certify' }).isDisabled()).toBe(true);
    await form.getByText('Use capital letters, digits and single underscores').waitFor();
    await form.getByLabel('The service’s code for what happened').fill('contract executed');
    expect(await form.getByLabel('The service’s code for what happened').inputValue()).toBe(
      'CONTRACT_EXECUTED',
    );
    await harness.screenshot('02-batch-form-other-event');
    await form.getByLabel('What happened to them').selectOption({ label: 'Produced to the other side' });
    await form.getByLabel('Kind of document').selectOption({ label: 'Contract' });
    // The name typed could not be kept: the form says why and certifies nothing yet.
    harness.failCalls(['setPreferences']);
    await form.getByRole('button', { name: 'Certify' }).click();
    await form.getByRole('alert').getByText('Evidence Desk could not read its queue.').waitFor();
    await harness.screenshotEverywhere('02b-batch-form-name-not-kept');
    expect(harness.core.queue.list({ limit: 10 })).toEqual([]);
    harness.failCalls([]);
    // Keyboard only: Enter in a field submits the form.
    await form.getByLabel('Matter (case or client-matter number, optional)').press('Enter');

    await page.getByText('4 files queued for certification.').waitFor();
    await expect
      .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 10_000 })
      .toContain('Pending');
    await harness.screenshot('03a-pending');
    for (const name of ['contract.pdf', 'annex.pdf', 'scan-1.png', 'scan-2.png']) {
      await expect
        .poll(() => page.locator(badge(name)).textContent(), { timeout: 20_000 })
        .toBe('Anchored ✓ verified');
    }
    await harness.screenshot('03-anchored');
    expect(await page.locator('[role="row"] .event').allTextContents()).toEqual(
      Array(4).fill('Produced to the other side'),
    );

    await page.getByRole('button', { name: 'contract.pdf', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'contract.pdf' });
    // The technical part is folded under the legal reader's facts; the check's own words are in it.
    await details.getByText('Technical details').click();
    await details.locator('dd', { hasText: 'Evidence verified' }).waitFor();
    expect(await details.locator('.timeline li').allTextContents()).toEqual([
      expect.stringContaining('queued'),
      expect.stringContaining('sending'),
      expect.stringContaining('pending'),
      expect.stringContaining('anchored'),
    ]);
    expect(await accessibilityViolations(page)).toEqual([]);
    // In words, with the codes among the technical details; who certified by name and firm.
    const facts = (await details.textContent()) ?? '';
    expect(facts).toContain('Produced to the other side');
    expect(facts).toContain('Contract');
    expect(facts).toContain('Jane Doe, Smith & Partners');
    expect(facts).toContain('DOCUMENT_PRODUCED · contract');
    await harness.screenshot('04-details');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });

    // The same screen in the dark theme the OS may ask for, held to the same contrast rules.
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await accessibilityViolations(page)).toEqual([]);
    await harness.screenshot('08-dark');
  }, 90_000);

  it('certifies the rest of a batch when one file cannot be read, and says which and why', async () => {
    const harness = await harnesses.start({ core: { embeddedSandbox: { batchIntervalMs: 300 } } });
    const { page } = harness;
    const [good] = harness.ws.files({ 'good.pdf': 'good' });
    await harness.drop([good!, join(harness.ws.dir, 'vanished.pdf')]);
    await page.getByRole('button', { name: 'Certify' }).click();
    await page.getByText('1 file queued for certification. 1 could not be certified:').waitFor();
    await page.getByText('vanished.pdf does not exist').waitFor();
    await expect
      .poll(() => page.locator(badge('good.pdf')).textContent(), { timeout: 20_000 })
      .toBe('Anchored ✓ verified');
  }, 60_000);

  it('shows progress while a large file is fingerprinted', async () => {
    const harness = await harnesses.start({ core: { embeddedSandbox: { batchIntervalMs: 300 } } });
    const { page } = harness;
    const big = join(harness.ws.dir, 'recording.wav');
    writeFileSync(big, '');
    // Large enough that its progress is seen for a few seconds, even on a fast computer.
    truncateSync(big, 1.5 * 1024 ** 3);
    await harness.drop([big]);
    await page.getByRole('button', { name: 'Certify' }).click();
    await page.getByText('Fingerprinting 0 of 1 file', { exact: true }).waitFor();
    await expect
      .poll(() => page.locator('progress').first().getAttribute('value'), { timeout: 10_000 })
      .not.toBe('0');
    await harness.screenshot('09-progress');
    await expect
      .poll(() => page.locator(badge('recording.wav')).textContent(), { timeout: 30_000 })
      .toBe('Anchored ✓ verified');
  }, 60_000);
});
