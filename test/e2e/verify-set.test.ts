import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { SCREEN_SIZES, accessibilityViolations, harnessPerTest, screenshotVariants } from './harness';
import { FILTERS_OF_THE_SET } from './set-filters';
import { METADATA, openCore } from '../support/core';

// A whole production in the app: dropped with its register, read with progress, a verdict per
// document with the counts as filters, and the report saved. Chromium on the real core; the save
// dialog is the harness's stand-in (it "chooses" <workspace>/saved).
const harnesses = harnessPerTest();

describe('verifying a set in the app', () => {
  it('checks a dropped folder against its register, filters by verdict and saves the report', async () => {
    const harness = await harnesses.start({ core: { embeddedSandbox: { batchIntervalMs: 200 } } });
    const { page, ws, core } = harness;
    const docs = ws.files({
      'contract.pdf': 'contract',
      'annex/annex 1.pdf': 'annex',
      'letter.pdf': 'letter',
    });
    const { queued } = await core.certify(docs, {
      asset_type: 'document',
      source_system: 'e2e',
      event_type: 'DOCUMENT_SIGNED',
    });
    await core.sync.waitUntilSettled(queued, 20_000);
    const register = join(ws.dir, 'register.csv');
    await core.exports.exportRegister({}, register);
    const production = join(ws.dir, 'production');
    execFileSync('cp', ['-r', join(ws.dir, 'docs'), production]);
    writeFileSync(join(production, 'letter.pdf'), 'the letter, edited');
    writeFileSync(join(production, 'cover.pdf'), 'never certified');

    // A small window: the answer and its first lines must come into view once the check is done.
    await page.setViewportSize(SCREEN_SIZES.small);
    await page.getByRole('button', { name: 'Verify…' }).click();
    await page.getByRole('button', { name: 'Verify a whole set…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify a set of documents' });
    await harness.drop([production, register]);
    await expect.poll(() => dialog.textContent()).toContain('register.csv');
    await dialog.getByRole('button', { name: 'Check', exact: true }).click();
    const verdict = dialog.getByRole('status').first();
    await expect
      .poll(() => verdict.textContent(), { timeout: 20_000 })
      .toMatch(/^Not passed: see the lines below/);
    // Made on this sandbox: the set's verdict says DEMO, as a single document's does.
    expect(await verdict.textContent()).toContain(
      'DEMO: certifications of this reference were made on a sandbox',
    );
    // Seen: what is drawn at its top left is the element itself, not something over it or nothing.
    const inSight = (element: Locator) =>
      element.evaluate((node) => {
        const box = node.getBoundingClientRect();
        const seen = document.elementFromPoint(
          box.left + Math.min(20, box.width / 2),
          box.top + Math.min(8, box.height / 2),
        );
        return box.height > 0 && node.contains(seen);
      });
    await expect.poll(() => inSight(verdict)).toBe(true);
    await expect.poll(() => inSight(dialog.locator('tbody tr').first())).toBe(true);
    const rows = () =>
      dialog.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-verdict')));
    // Problems first, in the filters and in the lines.
    expect(await rows()).toEqual(['changed', 'not_certified', 'verified', 'verified']);
    expect(await dialog.getByRole('group', { name: 'Show' }).getByRole('button').allTextContents()).toEqual(
      FILTERS_OF_THE_SET,
    );
    await dialog.getByRole('button', { name: 'Changed (1)' }).click();
    expect(await rows()).toEqual(['changed']);
    expect(await dialog.locator('tbody').textContent()).toContain('letter.pdf');
    await dialog.getByRole('button', { name: /^All/ }).click();

    await screenshotVariants(page, 'screen-verify-set');
    expect(await accessibilityViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Save report (PDF)…' }).click();
    await expect.poll(() => dialog.textContent()).toMatch(/Saved the report to .*\.pdf/);
    const saved = (await dialog.textContent())?.match(/Saved the report to (.*\.pdf)\./)?.[1] ?? '';
    expect(existsSync(saved)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  }, 90_000);

  it("says a kit signed by another service's key is certified but not trusted, and checks again trusting it when asked", async () => {
    const harness = await harnesses.start({ core: { embeddedSandbox: { batchIntervalMs: 200 } } });
    const { page, ws } = harness;
    // The kit comes from another office: another sandbox, whose log key this app has never trusted.
    const sender = await openCore(join(ws.dir, 'sender data'), { embeddedSandbox: { batchIntervalMs: 200 } });
    const kit = join(ws.dir, 'their kit.zip');
    const production = join(ws.dir, 'docs');
    try {
      const { queued } = await sender.certify(ws.files({ 'a.pdf': 'a', 'b.pdf': 'b' }), METADATA);
      await sender.sync.waitUntilSettled(queued);
      await sender.exports.exportEvidence({}, { dir: join(ws.dir, 'their kit'), zip: kit });
    } finally {
      await sender.close();
    }
    await page.getByRole('button', { name: 'Verify…' }).click();
    await page.getByRole('button', { name: 'Verify a whole set…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify a set of documents' });
    await harness.drop([production, kit]);
    await expect.poll(() => dialog.textContent()).toContain('their kit.zip');
    await dialog.getByRole('button', { name: 'Check', exact: true }).click();
    const verdict = dialog.getByRole('status').first();
    await expect
      .poll(() => verdict.textContent(), { timeout: 20_000 })
      .toMatch(/^Not passed yet: certified, but signed by a key you have not trusted/);
    const said = (await verdict.textContent()) ?? '';
    expect(said).toContain('2 documents are certified by this kit, but their signatures rest on keys');
    expect(said).toMatch(/Log key: [0-9A-F]{4}( [0-9A-F]{4}){15}/);
    expect(said).toContain('DEMO');
    expect(said).not.toMatch(/Not certified|nothing was checked/i);
    // Its seal too rests on an authority not trusted here: named, not relied on.
    expect(said).toContain('The kit is sealed by an authority you have not trusted');
    await screenshotVariants(page, 'screen-verify-set-untrusted');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'They match: check again, trusting this kit’s keys' }).click();
    await expect
      .poll(() => verdict.textContent(), { timeout: 20_000 })
      .toMatch(/^Passed: everything in the reference was found and verified/);
    expect(await verdict.textContent()).toContain('Checked trusting this kit’s keys, as you chose.');
    expect(await verdict.textContent()).toMatch(
      /The kit is sealed: all \d+ of its files are as they were on /,
    );
    await screenshotVariants(page, 'screen-verify-set-sealed');
  }, 90_000);
});
