import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harnessPerTest } from './harness';

// The renderer, built, in Debian's Chromium, on the real core. Sync is off where rows must stay
// queued (never sent, so removable).
const harnesses = harnessPerTest();

const focusedInsideDialog = () =>
  document.activeElement !== null && document.activeElement.closest('dialog[open]') !== null;

describe('dialogs, removal and failures the user can see', () => {
  it('removes a queued certification: the row leaves the list and the counts drop, with no refresh', async () => {
    const harness = await harnesses.start({ core: { sync: false } });
    const { page } = harness;
    await harness.drop(harness.ws.files({ 'draft.pdf': 'a draft', 'final.pdf': 'the final' }));
    await page.getByRole('button', { name: 'Certify' }).click();
    await page.getByRole('button', { name: 'All (2)' }).waitFor();

    await page.getByRole('button', { name: 'draft.pdf', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'draft.pdf' });
    await details.getByRole('button', { name: 'Remove…' }).click();
    await details.getByRole('button', { name: 'Remove', exact: true }).click();
    await details.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'All (1)' }).waitFor();
    await page.getByRole('button', { name: 'draft.pdf', exact: true }).waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'final.pdf', exact: true }).count()).toBe(1);
    expect(harness.core.status().counts.queued).toBe(1);
  }, 60_000);

  it('chooses all shown with Ctrl+A or the header box, removes those never anchored after the question, and searches on Ctrl+F', async () => {
    const harness = await harnesses.start({ core: { embeddedSandbox: { batchIntervalMs: 200 } } });
    const { page, core } = harness;
    await harness.drop(harness.ws.files({ 'signed.pdf': 'signed' }));
    await page.getByRole('button', { name: 'Certify' }).click();
    await expect
      .poll(() => page.locator('[role="row"] .badge').allTextContents())
      .toEqual(['Anchored ✓ verified']);
    core.sync.pause();
    await harness.drop(harness.ws.files({ 'draft 1.pdf': 'one', 'draft 2.pdf': 'two' }));
    await page.getByRole('button', { name: 'Certify' }).click();
    await page.getByRole('button', { name: 'All (3)' }).waitFor();
    // The list shows the new rows (above the first): a click now lands where it aims.
    await expect.poll(() => page.locator('.list-row .file button').allTextContents()).toHaveLength(3);

    // A row's context menu: what can be done with that certification, and nothing it cannot.
    await page.getByRole('button', { name: 'signed.pdf', exact: true }).click({ button: 'right' });
    const signedMenu = page.getByRole('menu', { name: 'What to do with signed.pdf' });
    await expect
      .poll(() => signedMenu.getByRole('menuitem').allTextContents())
      .toEqual(['Open details', 'Show in folder', 'Save certificate (PDF)…', 'Verify this file…']);
    await harness.screenshotEverywhere('desk-row-menu');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(harness.shownInFolder).toEqual([join(harness.ws.dir, 'docs', 'signed.pdf')]);
    await signedMenu.waitFor({ state: 'detached' });
    // When the file manager cannot be asked, the notice says why (it was dropped unseen).
    harness.failCalls(['showInFolder']);
    await page.getByRole('button', { name: 'signed.pdf', exact: true }).click({ button: 'right' });
    await signedMenu.getByRole('menuitem', { name: 'Show in folder' }).click();
    await page.getByRole('status').getByText('Evidence Desk could not read its queue.').waitFor();
    expect(harness.shownInFolder).toHaveLength(1);
    harness.failCalls([]);
    // From the keyboard too (Shift+F10 on the focused name).
    await page.getByRole('button', { name: 'draft 1.pdf', exact: true }).focus();
    await page.keyboard.press('Shift+F10');
    const draftMenu = page.getByRole('menu', { name: 'What to do with draft 1.pdf' });
    await expect
      .poll(() => draftMenu.getByRole('menuitem').allTextContents())
      .toEqual(['Open details', 'Show in folder', 'Verify this file…', 'Remove…']);
    await page.keyboard.press('Escape');
    await draftMenu.waitFor({ state: 'detached' });

    // The header's box chooses everything shown; showing something else lets go of that choice.
    const chooseAll = page.getByRole('checkbox', { name: 'Choose all certifications shown' });
    await chooseAll.check();
    const bar = page.getByRole('region', { name: 'Chosen certifications' });
    await expect.poll(() => bar.textContent()).toContain('All certifications shown are chosen');
    expect(await page.getByRole('checkbox', { name: 'Choose draft 1.pdf' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: /^Anchored/ }).click();
    await bar.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^All/ }).click();

    // The keyboard: Ctrl+A chooses all shown, Delete asks first, and only the never anchored go.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+A');
    await bar.waitFor();
    await page.keyboard.press('Delete');
    const question = page.getByRole('dialog', { name: 'Remove the chosen certifications?' });
    await expect.poll(() => question.textContent()).toContain('Only those never anchored are removed');
    await harness.screenshotEverywhere('desk-remove-chosen');
    await question.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect
      .poll(() => page.locator('.notice').textContent())
      .toContain(
        'Removed 2 certifications that were never anchored. 1 stays: it is anchored or on its way to the service, and keeps its evidence.',
      );
    await page.getByRole('button', { name: 'All (1)' }).waitFor();

    // Ctrl+F: the search field, ready to type in.
    await page.keyboard.press('Control+F');
    await page.keyboard.type('signed');
    expect(await page.getByRole('searchbox').inputValue()).toBe('signed');
  }, 60_000);

  it('moves focus into every dialog, keeps it there, closes on Escape and gives it back', async () => {
    const harness = await harnesses.start({ core: { sync: false } });
    const { page } = harness;
    const opener = page.getByRole('button', { name: 'Settings', exact: true });
    await opener.focus();
    await page.keyboard.press('Enter');
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.waitFor();
    expect(await page.evaluate(focusedInsideDialog)).toBe(true);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(focusedInsideDialog)).toBe(true);
    }
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(focusedInsideDialog)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Settings');

    // The batch form is the same dialog: Escape cancels it too.
    await harness.drop(harness.ws.files({ 'memo.pdf': 'memo' }));
    const batch = page.getByRole('dialog', { name: 'Certify 1 item' });
    await batch.waitFor();
    expect(await page.evaluate(focusedInsideDialog)).toBe(true);
    await page.keyboard.press('Escape');
    await batch.waitFor({ state: 'detached' });
    expect(harness.core.status().counts.queued).toBe(0);
  }, 60_000);

  it('says so when the list or the settings cannot be loaded, and recovers on "Try again"', async () => {
    const harness = await harnesses.start({ core: { sync: false } });
    const { page } = harness;
    await harness.drop(harness.ws.files({ 'exhibit-a.pdf': 'exhibit a' }));
    await page.getByRole('button', { name: 'Certify' }).click();
    await page.getByRole('button', { name: 'exhibit-a.pdf', exact: true }).waitFor();

    harness.failCalls(['list', 'settings', 'watchedFolders']);
    await page.reload();
    // The watched folders, read as the window opens, are not left out unsaid.
    await page
      .getByRole('status')
      .filter({ hasText: 'The watched folders could not be read: Evidence Desk could not read its queue.' })
      .waitFor();
    const listError = page.getByRole('alert').filter({ hasText: 'These certifications could not be shown' });
    await listError.waitFor();
    // What happened, that nothing is lost, and what to do next.
    expect(await listError.textContent()).toMatch(
      /^These certifications could not be shown: Evidence Desk could not read its queue\. Nothing is lost: they are still on this computer\. Try again;/,
    );
    expect(await page.getByText('Loading…').count()).toBe(0);
    await harness.screenshot('10-list-error');
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page
      .getByText('The current settings could not be read: Evidence Desk could not read its queue.')
      .waitFor();
    // Settings reads the watched folders again, and says there why it could not.
    await page
      .getByRole('dialog', { name: 'Settings' })
      .locator('.watched-folders')
      .getByText('Evidence Desk could not read its queue.', { exact: true })
      .waitFor();
    await page.keyboard.press('Escape');

    harness.failCalls([]);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('button', { name: 'exhibit-a.pdf', exact: true }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  }, 60_000);
});
