import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { de } from '../../protocol/locales/de';
import type { Receipt } from '../../protocol/receipt';
import { editedCopies } from '../support/edited-receipts';
import { englishOn } from '../support/english-leaks';
import type { Harness } from './harness';
import { harnessPerTest } from './harness';

// A person who reads German goes through every screen and dialog where the core speaks: a file
// that cannot be certified, a certification's details and timeline, verifying against this
// computer and against a proof (genuine and edited), a failed connection test, and a profile that
// needs setting up. Nothing they can read may be a sentence of the English catalogue.
const harnesses = harnessPerTest();
const words = de.app;

async function expectNoEnglish(harness: Harness, where: string): Promise<void> {
  const visible = await harness.page.locator('body').innerText();
  expect(englishOn(visible), where).toEqual([]);
}

describe('the app in German', () => {
  it('shows no sentence of the English catalogue on any screen or dialog', async () => {
    const harness = await harnesses.start({
      locale: 'de-DE',
      core: { embeddedSandbox: { batchIntervalMs: 200 } },
    });
    const { page, ws } = harness;

    // A file that was moved away before it could be certified fails alone, beside one that is there.
    const [contract] = ws.files({ 'Kaufvertrag.pdf': 'der Vertrag, wie unterschrieben' });
    await harness.drop([contract!, join(ws.dir, 'verschoben.pdf')]);
    await page.getByRole('button', { name: words.batch.certify, exact: true }).click();
    await expect
      .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 20_000 })
      .toEqual([words.state.verified]);
    await expect.poll(() => page.locator('.notice').innerText()).toContain('verschoben.pdf');
    await expectNoEnglish(harness, 'the list, with a file that could not be certified');

    // A kit of thousands being saved, as the bar under the drop zone says it (the next save clears it).
    harness.core.emit('kitProgress', { done: 1234, total: 10_000 });
    await expect
      .poll(() => page.locator('.progress label').innerText())
      .toBe('Nachweise werden gespeichert: Zertifikat 1.234 von 10.000');
    await expectNoEnglish(harness, 'a kit being saved');
    await harness.screenshot('screen-german-saving-kit');

    // Its details, technical part and timeline: what the service answered and what the check found.
    await page.getByRole('button', { name: 'Kaufvertrag.pdf', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'Kaufvertrag.pdf' });
    await details.getByText(words.details.technical).click();
    await details.getByText(words.details.evidence).click();
    await expect.poll(() => details.innerText()).toContain('Nachweis geprüft');
    await expectNoEnglish(harness, 'details');
    await details.getByRole('button', { name: words.details.saveEvidence }).click();
    const saved = join(ws.dir, 'saved');
    await expect.poll(() => existsSync(saved) && readdirSync(saved).length).toBe(1);
    await expect.poll(() => page.locator('.progress').count()).toBe(0);
    await details.getByRole('button', { name: words.details.close, exact: true }).click();
    const kit = join(saved, readdirSync(saved)[0]!, 'certifications');

    // Verifying: against this computer, against its certificate, and against an edited receipt.
    await page.getByRole('button', { name: words.header.verify }).click();
    const verdict = page.getByRole('dialog', { name: words.verify.title }).getByRole('status');
    await harness.drop([contract!]);
    await expect.poll(() => verdict.innerText()).toContain(words.verify.verifiedHere);
    await expectNoEnglish(harness, 'verified against this computer');
    await harness.drop([contract!, join(kit, 'Kaufvertrag.pdf.certificate.pdf')]);
    await expect.poll(() => verdict.innerText()).toContain(words.verify.verdicts.verified);
    await expectNoEnglish(harness, 'verified against its certificate');
    const genuine = JSON.parse(readFileSync(join(kit, 'Kaufvertrag.pdf.receipt.json'), 'utf8')) as Receipt;
    const edited = join(ws.dir, 'bearbeitet.receipt.json');
    writeFileSync(edited, JSON.stringify(editedCopies(genuine).certified_at));
    await harness.drop([contract!, edited]);
    await expect.poll(() => verdict.innerText()).toContain(words.verify.verdicts.receipt_invalid);
    await expectNoEnglish(harness, 'an edited receipt');

    // A whole set, against the certifications on this computer.
    await page.getByRole('button', { name: words.verifySet.open }).click();
    const setDialog = page.getByRole('dialog', { name: words.verifySet.title });
    await harness.drop([join(ws.dir, 'docs')]);
    await setDialog.getByRole('button', { name: words.verifySet.check, exact: true }).click();
    await expect.poll(() => setDialog.innerText(), { timeout: 20_000 }).toContain(words.verifySet.passed);
    await expectNoEnglish(harness, 'a set verified');
    await page.keyboard.press('Escape');

    // A connection test to an address where nothing answers.
    await page.getByRole('button', { name: words.header.settings, exact: true }).click();
    const settings = page.getByRole('dialog', { name: words.settings.title });
    await settings.getByLabel(words.settings.environmentLabel).selectOption('custom');
    await settings.getByLabel(words.settings.profileId).fill('kanzlei');
    await settings.getByLabel(words.settings.baseUrl).fill('http://127.0.0.1:9');
    await settings.getByLabel(words.settings.tokenUrl).fill('http://127.0.0.1:9/oauth/token');
    await settings.getByLabel(words.settings.clientId).fill('kanzlei-desk');
    await settings.getByLabel(words.settings.clientSecret).fill('geheim');
    await settings.getByRole('button', { name: words.settings.test }).click();
    await expect.poll(() => settings.innerText(), { timeout: 20_000 }).toContain('nicht erreichbar');
    await expectNoEnglish(harness, 'a failed connection test');
    await page.keyboard.press('Escape');

    // A profile whose secret is not in the keychain: sending waits, and the banner says why.
    await harness.core.profiles.saveAndUse(
      {
        id: 'ohne-geheimnis',
        kind: 'custom',
        baseUrl: 'http://127.0.0.1:9',
        tokenUrl: 'http://127.0.0.1:9/oauth/token',
        clientId: 'desk',
        signRequests: false,
      },
      {},
    );
    const banner = page.getByTestId('offline-banner');
    await expect.poll(() => banner.innerText(), { timeout: 10_000 }).toContain('Schlüsselbund');
    await expectNoEnglish(harness, 'a profile that needs setting up');
    await harness.screenshot('screen-german-needs-setup');
  }, 90_000);
});
