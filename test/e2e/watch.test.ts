import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, harnessPerTest } from './harness';

// Settings → Watched folders and the list, in Chromium on the real core watching the real file
// system. The system's folder dialog is a stand-in (harness.ts): the person "chooses" inbox/.
const harnesses = harnessPerTest();

describe('watched folders in the app', () => {
  it('sets up a folder in Settings, certifies what lands in it, shows where each row came from, and warns when the folder goes', async () => {
    const harness = await harnesses.start({
      core: {
        watch: true,
        watchTiming: { lookMs: 100, healthMs: 300 },
        embeddedSandbox: { batchIntervalMs: 200 },
      },
    });
    const { page, ws } = harness;
    const inbox = join(ws.dir, 'inbox');

    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByText('No folder is watched yet.').waitFor();
    await settings.getByRole('button', { name: 'Watch a folder…' }).click();
    const form = settings.getByRole('group', { name: `Set up watching ${inbox}` });
    await form.getByLabel(/Matter/).fill('ACME-7');
    await form.getByLabel('Which files (leave empty for every file)').fill('*.pdf');
    await form.getByLabel('Certify a file once it has not changed for (seconds)').fill('0.5');
    await harness.screenshotEverywhere('watch-setup');
    expect(await accessibilityViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Watch this folder' }).click();
    const line = settings.getByRole('listitem').filter({ hasText: inbox });
    await expect.poll(() => line.textContent()).toMatch(/Watching, told of each change/);
    expect(await line.textContent()).toMatch(
      /Matter ACME-7 · DOCUMENT_SIGNED · document · \*\.pdf · with subfolders/,
    );
    await harness.screenshotEverywhere('watch-settings');
    await settings.getByRole('button', { name: 'Close' }).click();
    expect(await page.getByTestId('watching-count').textContent()).toBe('Watching 1 folder');

    // A scan lands; a text file and Word's lock file are not what this folder certifies.
    writeFileSync(join(inbox, 'scan 0001.pdf'), 'a scanned contract');
    writeFileSync(join(inbox, 'notes.txt'), 'not a pdf');
    writeFileSync(join(inbox, '~$scan.pdf'), 'a lock file');
    const rows = page.locator('[role="row"] .file');
    await expect.poll(() => rows.allTextContents(), { timeout: 20_000 }).toEqual(['scan 0001.pdffrom inbox']);
    expect(await page.locator('[role="row"] .matter').allTextContents()).toEqual(['ACME-7']);
    await expect
      .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 20_000 })
      .toEqual(['Anchored ✓ verified']);
    await harness.screenshotEverywhere('watch-list');

    // The folder goes (a share disconnected): a warning that names it and says why, until it is back.
    rmSync(inbox, { recursive: true });
    const banner = page.getByTestId('watch-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(
      new RegExp(`^A watched folder is not being watched\\. ${inbox} is not there: it may have been moved`),
    );
    await harness.screenshotEverywhere('watch-unavailable');
    mkdirSync(inbox);
    await banner.waitFor({ state: 'detached' });
  }, 90_000);
});
