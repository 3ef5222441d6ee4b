import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Harness } from './harness';
import { accessibilityViolations, harnessPerTest } from './harness';

// Matters, sorting, the custody register and asking before a removal, in Chromium on the real
// core. The native save dialog and the file manager are stand-ins (harness.ts): the register is
// "saved" in <workspace>/saved, and "Show in folder" is recorded.
const harnesses = harnessPerTest();
const SIZES = { small: { width: 800, height: 600 }, large: { width: 1440, height: 900 } } as const;
const MATTER = 'M-2024/118 Müller v. Smith';

const fileNames = (harness: Harness) => harness.page.locator('[role="row"] .file button').allTextContents();

async function certifyFor(harness: Harness, files: Record<string, string>, matter: string) {
  await harness.drop(harness.ws.files(files));
  const form = harness.page.getByRole('dialog', { name: /Certify/ });
  await form.getByLabel(/Matter/).fill(matter);
  await form.getByRole('button', { name: 'Certify' }).click();
}

describe('matters and the register in the app', () => {
  it('certifies a batch for a matter, lists it in path order, filters and sorts, and exports its register', async () => {
    const harness = await harnesses.start({ core: { embeddedSandbox: { batchIntervalMs: 200 } } });
    const { page } = harness;
    await certifyFor(harness, { 'c-witness.pdf': 'c', 'a-contract.pdf': 'a', 'b-annex.pdf': 'b' }, MATTER);
    await expect
      .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 20_000 })
      .toEqual(['Anchored ✓ verified', 'Anchored ✓ verified', 'Anchored ✓ verified']);
    expect(await fileNames(harness)).toEqual(['a-contract.pdf', 'b-annex.pdf', 'c-witness.pdf']);
    expect(await page.locator('[role="row"] .matter').allTextContents()).toEqual([MATTER, MATTER, MATTER]);
    // The header names the environment; "3 files queued" goes once the batch is anchored.
    expect(await page.getByTestId('environment').innerText()).toBe('Demo sandbox');
    await expect.poll(() => page.locator('main').textContent()).not.toMatch(/files queued for certification/);

    // The next batch offers the matter just used, and may have none.
    await harness.drop(harness.ws.files({ 'unrelated.pdf': 'u' }));
    const form = page.getByRole('dialog', { name: /Certify/ });
    expect(
      await form
        .locator('datalist option')
        .evaluateAll((options) => options.map((o) => o.getAttribute('value'))),
    ).toContain(MATTER);
    await form.getByLabel(/Matter/).fill('');
    await form.getByRole('button', { name: 'Certify' }).click();
    await expect.poll(() => fileNames(harness), { timeout: 20_000 }).toHaveLength(4);
    expect(await fileNames(harness)).toEqual([
      'unrelated.pdf',
      'a-contract.pdf',
      'b-annex.pdf',
      'c-witness.pdf',
    ]);

    await page.getByLabel('Matter').selectOption(MATTER);
    await expect.poll(() => fileNames(harness)).toEqual(['a-contract.pdf', 'b-annex.pdf', 'c-witness.pdf']);
    expect(await page.getByLabel('Matter').locator('option:checked').textContent()).toBe(`${MATTER} (3)`);

    const fileHeader = page.getByRole('columnheader', { name: /File/ });
    await fileHeader.getByRole('button').click();
    expect(await fileHeader.getAttribute('aria-sort')).toBe('ascending');
    await fileHeader.getByRole('button').click();
    expect(await fileHeader.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(() => fileNames(harness)).toEqual(['c-witness.pdf', 'b-annex.pdf', 'a-contract.pdf']);

    for (const [size, viewport] of Object.entries(SIZES))
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(viewport);
        await harness.screenshot(`matters-list-${size}-${scheme}`);
        // The matter, its state and when: whole, never cut with "…", while short file names leave room.
        const cut = await page
          .locator('.list-row .matter, .list-row .state .badge, .list-row .added time')
          .evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth).length);
        expect(cut, `${size} ${scheme}`).toBe(0);
      }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Export register…' }).click();
    await expect
      .poll(() => page.locator('main').textContent())
      .toMatch(/Wrote the register of 3 certifications to/);
    const saved = join(harness.ws.dir, 'saved');
    // The register, and beside it its events, one per row.
    const [events, register] = readdirSync(saved).sort();
    expect(register).toMatch(/^Register M-2024-118 Müller v\. Smith \d{4}-\d\d-\d\d\.csv$/);
    expect(events).toBe(register!.replace(/\.csv$/, ' events.csv'));
    const lines = readFileSync(join(saved, register!), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((line) => line.startsWith(`${MATTER},`))).toBe(true);

    await page.getByRole('button', { name: 'a-contract.pdf', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'a-contract.pdf' });
    await expect.poll(() => details.textContent()).toContain(MATTER);
    await details.getByRole('button', { name: 'Show in folder' }).click();
    await expect.poll(() => harness.shownInFolder).toEqual([join(harness.ws.dir, 'docs', 'a-contract.pdf')]);
  }, 90_000);

  it('chooses several rows, by mouse and keyboard, and saves the evidence of just those', async () => {
    const harness = await harnesses.start({ core: { embeddedSandbox: { batchIntervalMs: 200 } } });
    const { page } = harness;
    await certifyFor(harness, { 'a.pdf': 'a', 'b.pdf': 'b', 'c.pdf': 'c' }, MATTER);
    await expect
      .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 20_000 })
      .toEqual(['Anchored ✓ verified', 'Anchored ✓ verified', 'Anchored ✓ verified']);

    await page.getByRole('checkbox', { name: 'Choose a.pdf' }).click();
    await page.getByRole('checkbox', { name: 'Choose c.pdf' }).focus();
    await page.keyboard.press('Space');
    const bar = page.getByRole('region', { name: 'Chosen certifications' });
    await expect.poll(() => bar.textContent()).toMatch(/^2 chosen/);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await harness.screenshot(`selection-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    await bar.getByRole('button', { name: 'Save their evidence…' }).click();
    await expect
      .poll(() => page.locator('main').textContent())
      .toMatch(/Saved the evidence of 2 certifications in/);
    const [kit] = readdirSync(join(harness.ws.dir, 'saved'));
    expect(readdirSync(join(harness.ws.dir, 'saved', kit!, 'certifications')).sort()).toEqual([
      'a.pdf.certificate.pdf',
      'a.pdf.ers',
      'a.pdf.receipt.json',
      'c.pdf.certificate.pdf',
      'c.pdf.ers',
      'c.pdf.receipt.json',
    ]);
    await bar.getByRole('button', { name: 'Clear choice' }).click();
    await bar.waitFor({ state: 'detached' });
  }, 60_000);

  it('asks before removing a certification, and the register records the removal', async () => {
    // Not sending, so what is dropped stays queued and can be removed.
    const harness = await harnesses.start({ core: { sync: false } });
    const { page } = harness;
    // Nothing to send: the header says so rather than "Connecting…" for ever.
    await expect.poll(() => page.locator('.top [role="status"]').textContent()).toMatch(/Ready/);
    await certifyFor(harness, { 'draft.pdf': 'draft', 'final.pdf': 'final' }, MATTER);
    await expect.poll(() => fileNames(harness)).toEqual(['draft.pdf', 'final.pdf']);

    await page.getByRole('button', { name: 'draft.pdf', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'draft.pdf' });
    await details.getByRole('button', { name: 'Remove…' }).click();
    const question = details.getByRole('alertdialog', { name: 'Remove this certification?' });
    await expect
      .poll(() => question.textContent())
      .toMatch(/Remove draft\.pdf from the list\? It was never sent/);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await harness.screenshot(`remove-confirm-${scheme}`);
      expect(await accessibilityViolations(page)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await question.getByRole('button', { name: 'Keep it' }).click();
    expect(await fileNames(harness)).toEqual(['draft.pdf', 'final.pdf']);

    await details.getByRole('button', { name: 'Remove…' }).click();
    await details.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => fileNames(harness)).toEqual(['final.pdf']);

    await page.getByRole('button', { name: 'Export register…' }).click();
    await expect
      .poll(() => page.locator('main').textContent())
      .toMatch(/Wrote the register of 1 certification to/);
    const saved = join(harness.ws.dir, 'saved');
    expect(existsSync(saved)).toBe(true);
    const [events, register] = readdirSync(saved).sort();
    expect(readFileSync(join(saved, register!), 'utf8')).toMatch(/draft\.pdf.*,removed,/);
    expect(readFileSync(join(saved, events!), 'utf8')).toMatch(
      /draft\.pdf,[0-9a-f]{64},,[^,]+,removed,"?removed; it was queued, never anchored"?,/,
    );
  }, 60_000);
});
