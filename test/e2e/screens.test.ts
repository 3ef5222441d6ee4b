import { describe, expect, it } from 'vitest';
import { accessibilityViolations, harnessPerTest } from './harness';

// Every screen in both themes and at the smallest supported window (800×600) and a large one,
// for people to look at (test-results/screenshots) and for axe to check.
const harnesses = harnessPerTest();

const SIZES = { small: { width: 800, height: 600 }, large: { width: 1440, height: 900 } } as const;

describe('the screens, light and dark, small and large', () => {
  it('renders the list, the batch form, details and settings legibly in every variant', async () => {
    const harness = await harnesses.start({ core: { embeddedSandbox: { batchIntervalMs: 200 } } });
    const { page } = harness;
    await harness.drop(
      harness.ws.files({ 'Share purchase agreement — signed.pdf': 'spa', 'annex-1.pdf': 'annex' }),
    );
    await page.getByRole('button', { name: 'Certify' }).click();
    await expect
      .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 20_000 })
      .toEqual(['Anchored ✓ verified', 'Anchored ✓ verified']);
    const paths = harness.ws.files({ 'next-batch.pdf': 'next' });
    await harness.registerPaths(paths);

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [size, viewport] of Object.entries(SIZES)) {
        await page.setViewportSize(viewport);
        const name = (screen: string) => `screen-${screen}-${scheme}-${size}`;
        await harness.screenshot(name('list'));

        await harness.drop(paths);
        await page.getByRole('dialog', { name: 'Certify 1 item' }).waitFor();
        await harness.screenshot(name('batch-form'));
        await page.keyboard.press('Escape');

        await page.getByRole('button', { name: 'annex-1.pdf', exact: true }).click();
        await page
          .getByRole('dialog', { name: 'annex-1.pdf' })
          .locator('dd', { hasText: 'Evidence verified' })
          .waitFor();
        await harness.screenshot(name('details'));
        expect(await accessibilityViolations(page)).toEqual([]);
        await page.keyboard.press('Escape');

        await page.getByRole('button', { name: 'Settings', exact: true }).click();
        await page
          .getByRole('dialog', { name: 'Settings' })
          .getByLabel('Environment')
          .selectOption('production');
        await harness.screenshot(name('settings'));
        expect(await accessibilityViolations(page)).toEqual([]);
        await page.keyboard.press('Escape');
      }
    }
  }, 120_000);
});
