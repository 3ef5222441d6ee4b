import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { EvidenceCore } from '../../main/core';
import { openCore } from '../support/core';
import { startTestSandbox } from '../support/sandbox';
import { accessibilityViolations, harnessPerTest } from './harness';

// The desk a paralegal keeps open: the app in the computer's language, settings that say what is
// wrong where it is wrong, details in a legal reader's order, and what happens to duplicates,
// pauses and a queue the command line is sending. Real core, real Chromium.
const harnesses = harnessPerTest();

// Playwright's own expect is not used here (vitest runs these); these poll the page the same way.
const textOf = (locator: Locator) => expect.poll(() => locator.textContent(), { timeout: 10_000 });
const attributeOf = (locator: Locator, name: string) =>
  expect.poll(() => locator.getAttribute(name), { timeout: 10_000 });
const countOf = (locator: Locator) => expect.poll(() => locator.count(), { timeout: 10_000 });
/** Wholly inside the window, without scrolling anything. */
async function expectInView(locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const viewport = locator.page().viewportSize();
  expect(box && viewport).toBeTruthy();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport!.height);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport!.width);
}

describe('the desk legal staff expect', () => {
  it('speaks the computer’s language (German here), and the one chosen in Settings from then on', async () => {
    const harness = await harnesses.start({ locale: 'de-DE' });
    const { page } = harness;
    await attributeOf(page.locator('html'), 'lang').toBe('de');
    await page.getByRole('button', { name: 'Prüfen…' }).waitFor();
    await page
      .getByText('Ziehen Sie Dokumente oder Ordner irgendwo in dieses Fenster.', { exact: false })
      .waitFor();
    await expect.poll(() => page.getByTestId('environment').innerText()).toBe('Demo-Sandbox');

    await harness.drop(harness.ws.files({ 'Kaufvertrag.pdf': 'kauf' }));
    const form = page.getByRole('dialog', { name: '1 Element zertifizieren' });
    await form.getByLabel('Akte (Aktenzeichen oder Mandatsnummer, optional)').fill('AZ 12/2026');
    await form.getByRole('button', { name: 'Zertifizieren' }).click();
    await expect
      .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 20_000 })
      .toEqual(['Verankert ✓ geprüft']);
    await page.getByText('1 Datei zur Zertifizierung eingereiht.').waitFor({ state: 'detached' });
    // Times in the German way with the zone named; ISO 8601 UTC on hover.
    const added = page.locator('[role="row"] .added time');
    await textOf(added).toMatch(/^\d{1,2}\. \w+\.? 2\d{3}, \d\d:\d\d (MEZ|MESZ)$/);
    await attributeOf(added, 'title').toMatch(/^UTC: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await harness.screenshotEverywhere('desk-german-list');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Kaufvertrag.pdf', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'Kaufvertrag.pdf' });
    await details.getByRole('heading', { name: 'Was zertifiziert wurde' }).waitFor();
    await textOf(details.locator('dd', { hasText: 'Byte' }).first()).toBe('4 Byte');
    await harness.screenshotEverywhere('desk-german-details');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Einstellungen' }).click();
    const settings = page.getByRole('dialog', { name: 'Einstellungen' });
    await textOf(settings.getByLabel('Sprache').locator('option').first()).toBe(
      'Wie auf diesem Computer (Deutsch)',
    );
    await settings.getByLabel('Sprache').selectOption('en');
    await page.getByRole('dialog', { name: 'Settings' }).waitFor();
    expect(harness.shell.languages).toEqual(['en']);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Verify…' }).waitFor();
    await textOf(page.locator('[role="row"] .badge')).toBe('Anchored ✓ verified');

    // Chosen, not guessed: the next start is in English though the computer speaks German.
    await page.reload();
    await page.getByRole('button', { name: 'Verify…' }).waitFor();
    await attributeOf(page.locator('html'), 'lang').toBe('en');
  }, 90_000);

  it('says where settings are wrong, in words, tests values before they are saved, and keeps Save in view at 800×600', async () => {
    const service = await startTestSandbox();
    const harness = await harnesses.start();
    try {
      const { page, core } = harness;
      await page.setViewportSize({ width: 800, height: 600 });
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      const settings = page.getByRole('dialog', { name: 'Settings' });
      await settings.getByLabel('Environment').selectOption('production');
      await settings.getByLabel('Service address (base URL)').fill('http://certify.example.com');
      await settings.getByLabel('Token address (token URL)').fill('not an address');
      // The signing key is asked for only when requests are signed.
      await countOf(settings.getByLabel('Signing key (HMAC)')).toBe(0);
      await settings.getByLabel('Sign requests').check();
      await countOf(settings.getByLabel('Signing key (HMAC)')).toBe(1);
      await settings.getByRole('button', { name: 'Save' }).click();

      const errorOf = (label: string) =>
        settings.getByLabel(label).evaluate((input) => {
          const id = input.getAttribute('aria-describedby');
          return id ? (document.getElementById(id)?.textContent ?? '') : '';
        });
      expect(await errorOf('Service address (base URL)')).toBe(
        'Production needs an address starting with https:// (plain http:// only reaches this computer).',
      );
      expect(await errorOf('Token address (token URL)')).toBe(
        'Enter a full address, like https://api.example.com.',
      );
      expect(await errorOf('Client id')).toBe('Enter the client id the service gave you.');
      expect(await errorOf('Client secret')).toBe('Enter the client secret the service gave you.');
      expect(await errorOf('Signing key (HMAC)')).toBe(
        'Signing is on: enter the signing key the service gave you.',
      );
      await textOf(settings.getByRole('status')).toBe('Some settings need attention; they are marked above.');
      expect(core.profiles.read('service')).toBeUndefined();
      await expectInView(settings.getByRole('button', { name: 'Save' }));
      await expectInView(settings.getByRole('button', { name: 'Test connection' }));
      await harness.screenshotEverywhere('desk-settings-errors');
      expect(await accessibilityViolations(page)).toEqual([]);

      // Values for a real service on this computer (http to loopback is allowed), tested unsaved.
      const client = service.createClient();
      await settings.getByLabel('Environment').selectOption('custom');
      await settings.getByLabel('Sign requests').uncheck();
      await settings.getByLabel('Profile name (lower case)').fill('local');
      await settings.getByLabel('Service address (base URL)').fill(service.baseUrl);
      await settings.getByLabel('Token address (token URL)').fill(service.tokenUrl);
      await settings.getByLabel('Client id').fill(client.clientId);
      await settings.getByLabel('Client secret').fill(client.clientSecret);
      await countOf(settings.locator('.field-error')).toBe(0);
      await settings.getByRole('button', { name: 'Test connection' }).click();
      await textOf(settings.getByRole('status')).toMatch(/^Connected: the service issued a token/);
      expect(core.profiles.read('local')).toBeUndefined();
      // Anything changed makes that answer stale: it goes.
      await settings.getByLabel('Client id').fill(`${client.clientId}x`);
      await textOf(settings.getByRole('status')).toBe('');
      await settings.getByRole('button', { name: 'Test connection' }).click();
      await textOf(settings.getByRole('status')).not.toMatch(/^Connected/);
      await textOf(settings.getByRole('status')).not.toBe('');

      // Launch at login: handed to the shell, which the OS keeps it in (recorded by the stand-in).
      await settings.getByLabel('Start Evidence Desk when I log in', { exact: false }).check();
      await expect.poll(() => harness.shell.launchAtLogin).toBe(true);
    } finally {
      await service.stop();
    }
  }, 90_000);

  it('answers a legal reader first in the details: what, as what, when (local and UTC), who and where; copy says Copied', async () => {
    const harness = await harnesses.start();
    const { page } = harness;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await harness.drop(harness.ws.files({ 'Witness statement.pdf': 'statement' }));
    await page.getByRole('button', { name: 'Certify' }).click();
    await expect
      .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 20_000 })
      .toEqual(['Anchored ✓ verified']);
    await page.getByRole('button', { name: 'Witness statement.pdf', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'Witness statement.pdf' });
    await details.getByText('anyone can confirm that this exact content existed', { exact: false }).waitFor();
    expect(await details.locator('h3').allTextContents()).toEqual([
      'What was certified',
      'Recorded as',
      'When',
      'Who and where',
      'Timeline',
    ]);
    const fact = (term: string) =>
      details
        .locator('dt')
        .filter({ hasText: new RegExp(`^${term}$`) })
        .locator('xpath=following-sibling::dd[1]');
    await textOf(fact('Size')).toBe('9 bytes');
    await textOf(fact('Certified')).toMatch(/ 2\d{3}.* (CET|CEST|GMT\+1|GMT\+2)/);
    await attributeOf(fact('Certified').locator('time'), 'title').toMatch(/^UTC: .*Z$/);
    await textOf(fact('Anchored')).not.toBe('Not yet');
    await textOf(fact('Environment')).toBe('Demo sandbox built into Evidence Desk');
    await textOf(fact('Service')).toBe('Built into Evidence Desk, on this computer');
    await textOf(fact('Certified by')).toMatch(/ on /);
    expect(await details.locator('.technical').getAttribute('open')).toBeNull();

    await fact('SHA-256').getByRole('button', { name: 'Copy' }).click();
    await textOf(fact('SHA-256').getByRole('button')).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      await fact('SHA-256').locator('code').textContent(),
    );
    await details.getByText('Technical details').click();
    await textOf(fact('Position in the log')).toMatch(/^Entry \d+ of \d+$/);
    await harness.screenshotEverywhere('desk-details-legal');
  }, 60_000);

  it('says when content is already certified, with when and as what, and certifies it again only when asked', async () => {
    const harness = await harnesses.start();
    const { page, core } = harness;
    const [original] = harness.ws.files({ 'Deed.pdf': 'the deed' });
    const [copy] = harness.ws.files({ 'Deed (copy).pdf': 'the deed' });
    await harness.drop([original!]);
    await page.getByRole('button', { name: 'Certify' }).click();
    await expect
      .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 20_000 })
      .toEqual(['Anchored ✓ verified']);

    await harness.drop([copy!]);
    await page.getByRole('button', { name: 'Certify' }).click();
    await page.getByText('1 file is already certified, so it was not sent again:').waitFor();
    await textOf(page.getByTestId('already-certified')).toMatch(
      /^Deed \(copy\)\.pdf: already certified on .* as “Deed\.pdf”$/,
    );
    expect(core.queue.count({})).toBe(1);
    expect(await page.getByText('0 files queued', { exact: false }).count()).toBe(0);
    await harness.screenshotEverywhere('desk-already-certified');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Certify it again' }).click();
    await expect.poll(() => core.queue.count({}), { timeout: 10_000 }).toBe(2);
    await expect
      .poll(() => page.locator('[role="row"] .file').allTextContents(), { timeout: 20_000 })
      .toEqual(['Deed (copy).pdf', 'Deed.pdf']);
  }, 60_000);

  it('shows "being sent by the command line" while the CLI sends this queue, and Resume after a pause', async () => {
    let commandLine: EvidenceCore | undefined;
    // Anchoring held on both, so the command line keeps sending (and holding the queue) throughout.
    const paused = { embeddedSandbox: { batchIntervalMs: 200, faults: { anchoringPaused: true } } };
    const harness = await harnesses.start({
      core: { sync: false, ...paused },
      before: async (_core, ws) => {
        commandLine = await openCore(ws.dataDir, { ...paused, sender: 'command-line' });
        await commandLine.certify(ws.files({ 'Sent elsewhere.pdf': 'cli' }), {
          asset_type: 'document',
          source_system: 'evidence-desk',
          event_type: 'DOCUMENT_SIGNED',
        });
        await commandLine.sync.waitUntilSent(commandLine.queue.list({ limit: 1 }).map((row) => row.id));
      },
    });
    try {
      const { page, core } = harness;
      core.sync.start();
      await page
        .getByTestId('offline-banner')
        .getByText('This queue is being sent by the command line (evidence-desk).', { exact: false })
        .waitFor();
      await textOf(page.locator('.indicator')).toBe('● Sent by the command line');
      await harness.screenshotEverywhere('desk-sent-by-command-line');
      expect(await accessibilityViolations(page)).toEqual([]);
      await commandLine?.close();
      commandLine = undefined;

      await core.sync.pause();
      await page.getByTestId('offline-banner').getByText('Sending is paused.', { exact: false }).waitFor();
      await page.getByRole('button', { name: 'Resume sending' }).click();
      await expect.poll(() => core.status().connectivity.state).not.toBe('paused');
      await countOf(page.getByText('Sending is paused.', { exact: false })).toBe(0);
    } finally {
      await commandLine?.close();
    }
  }, 90_000);
});
