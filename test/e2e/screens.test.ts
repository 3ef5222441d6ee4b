import { describe, expect, it } from 'vitest';
import { de } from '../../protocol/locales/de';
import { en } from '../../protocol/locales/en';
import { englishOn } from '../support/english-leaks';
import { SCREEN_SIZES, accessibilityViolations, harnessPerTest } from './harness';

// Every screen in both themes, at the smallest supported window (800×600) and a large one, and in
// both languages, for people to look at (test-results/screenshots) and for axe to check. Controls
// are found by the catalogue's own words, so a German screen is driven in German.
const harnesses = harnessPerTest();

const LANGUAGES = [
  ['en', 'en-GB', en.app, en.said],
  ['de', 'de-DE', de.app, de.said],
] as const;

describe('the screens, light and dark, small and large, English and German', () => {
  it.each(LANGUAGES)(
    'renders the list, the batch form, details, verify, settings and their notices legibly in every variant (%s)',
    async (language, locale, words, said) => {
      const harness = await harnesses.start({ locale, core: { embeddedSandbox: { batchIntervalMs: 200 } } });
      const { page } = harness;
      await harness.drop(
        harness.ws.files({ 'Share purchase agreement — signed.pdf': 'spa', 'annex-1.pdf': 'annex' }),
      );
      await page.getByRole('button', { name: words.batch.certify, exact: true }).click();
      await expect
        .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 20_000 })
        .toEqual([words.state.verified, words.state.verified]);
      const paths = harness.ws.files({ 'next-batch.pdf': 'next' });
      await harness.registerPaths(paths);

      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const [size, viewport] of Object.entries(SCREEN_SIZES)) {
          await page.setViewportSize(viewport);
          /** The screen as it is now: photographed, in German throughout, and accessible to axe. */
          const look = async (screen: string) => {
            await harness.screenshot(`screen-${screen}-${language}-${scheme}-${size}`);
            if (language === 'de')
              expect(englishOn(await page.locator('body').innerText()), screen).toEqual([]);
            // What axe finds (contrast, names, roles) follows the theme, not the window's size: it
            // checks each theme once, in the small window, where things crowd.
            if (size === 'small') expect(await accessibilityViolations(page), screen).toEqual([]);
          };
          await look('list');

          await harness.drop(paths);
          await page.getByRole('dialog', { name: words.batch.title_one.replace('{{count}}', '1') }).waitFor();
          await look('batch-form');
          await page.keyboard.press('Escape');

          await page.getByRole('button', { name: 'annex-1.pdf', exact: true }).click();
          const details = page.getByRole('dialog', { name: 'annex-1.pdf' });
          await details.getByText(words.meaning.verified).waitFor();
          await look('details');
          // The technical part, the evidence and the raw answer unfolded: still legible, still accessible.
          await details.getByText(words.details.technical).click();
          await details.getByText(words.details.evidence).click();
          await details.locator('dd', { hasText: said.evidence.verified.split(':')[0] }).waitFor();
          await look('details-technical');
          await details.getByRole('button', { name: words.details.close, exact: true }).click();

          await page.getByRole('button', { name: words.header.verify }).click();
          await page.getByRole('dialog', { name: words.verify.title }).waitFor();
          await look('verify');
          await page.keyboard.press('Escape');

          await page.getByRole('button', { name: words.header.settings, exact: true }).click();
          const settings = page.getByRole('dialog', { name: words.settings.title });
          await settings.getByLabel(words.settings.environmentLabel).selectOption('production');
          await settings.getByRole('button', { name: words.settings.save }).click();
          await look('settings');
          await page.keyboard.press('Escape');
        }
      }
    },
    180_000,
  );
});
