import type { FileChooser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, harnessPerTest } from './harness';

// The whole flow with the keyboard alone — add, describe the batch, certify, details, verify,
// save the evidence, settings — and at every stop the focused control shows a focus ring that no
// scrolling box or window edge cuts off.
const harnesses = harnessPerTest();

/** What is focused, and why its focus ring would not be seen (null when it is). */
async function focusProblem(page: Page): Promise<{ focused: string; problem: string | null }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    const focused = element
      ? `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`
      : 'nothing';
    if (!element || element === document.body) return { focused, problem: 'nothing is focused' };
    const style = getComputedStyle(element);
    const width = parseFloat(style.outlineWidth) || 0;
    if (style.outlineStyle === 'none' || width === 0) return { focused, problem: 'no focus ring' };
    const reach = width + (parseFloat(style.outlineOffset) || 0);
    const box = element.getBoundingClientRect();
    const ring = {
      left: box.left - reach,
      top: box.top - reach,
      right: box.right + reach,
      bottom: box.bottom + reach,
    };
    const inside = (outer: { left: number; top: number; right: number; bottom: number }) =>
      ring.left >= outer.left - 0.5 &&
      ring.top >= outer.top - 0.5 &&
      ring.right <= outer.right + 0.5 &&
      ring.bottom <= outer.bottom + 0.5;
    if (!inside({ left: 0, top: 0, right: innerWidth, bottom: innerHeight }))
      return {
        focused,
        problem: `focus ring outside the window (${Math.round(ring.top)}–${Math.round(ring.bottom)} of ${innerHeight})`,
      };
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      const overflow = getComputedStyle(parent);
      if (overflow.overflowX === 'visible' && overflow.overflowY === 'visible') continue;
      const rect = parent.getBoundingClientRect();
      const clip = {
        left: rect.left + parent.clientLeft,
        top: rect.top + parent.clientTop,
        right: rect.left + parent.clientLeft + parent.clientWidth,
        bottom: rect.top + parent.clientTop + parent.clientHeight,
      };
      if (!inside(clip))
        return { focused, problem: `focus ring cut off by ${parent.className || parent.tagName}` };
    }
    return { focused, problem: null };
  });
}

/** Presses Tab until `isTarget` holds for the focused element, checking every stop on the way. */
async function tabTo(page: Page, isTarget: (focused: string) => boolean, shift = false): Promise<void> {
  for (let presses = 0; presses < 60; presses++) {
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
    const { focused, problem } = await focusProblem(page);
    expect(problem, `on ${focused}`).toBeNull();
    if (isTarget(focused)) return;
  }
  throw new Error('never reached the control by Tab');
}
const named = (name: string) => (focused: string) => focused.includes(`"${name}`);

describe('keyboard only', () => {
  it.each([
    ['800×600', { width: 800, height: 600 }],
    ['1440×900', { width: 1440, height: 900 }],
  ])(
    'adds, certifies, opens the details, verifies, saves the evidence and reaches the settings without a mouse, at %s',
    async (_size, viewport) => {
      {
        const harness = await harnesses.start();
        const { page } = harness;
        // Listening from the start: Playwright turns file-chooser interception on when the first
        // listener is added, and a chooser opened before that is missed.
        const choosers: FileChooser[] = [];
        page.on('filechooser', (chooser) => choosers.push(chooser));
        await page.setViewportSize(viewport);
        const [file] = harness.ws.files({ 'Engagement letter.pdf': 'engagement' });
        await harness.registerPaths([file!]);

        await tabTo(page, named('Add files…'));
        await page.keyboard.press('Enter');
        await expect.poll(() => choosers.length).toBe(1);
        await choosers[0]!.setFiles({
          name: 'Engagement letter.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('x'),
        });
        const form = page.getByRole('dialog', { name: 'Certify 1 item' });
        await form.waitFor();
        // Focus starts in the form's first field; Tab walks the fields to Certify.
        expect((await focusProblem(page)).problem).toBeNull();
        await page.keyboard.type('M-7');
        await tabTo(page, named('Certify'));
        await page.keyboard.press('Enter');
        await expect
          .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 20_000 })
          .toEqual(['Anchored ✓ verified']);

        await tabTo(page, named('Engagement letter.pdf'));
        // A long name ends in an ellipsis; with focus, as on hover, the whole path is shown.
        expect(await page.getByRole('tooltip').textContent()).toBe(file);
        await page.keyboard.press('Enter');
        const details = page.getByRole('dialog', { name: 'Engagement letter.pdf' });
        await details.waitFor();
        expect((await focusProblem(page)).problem).toBeNull();
        await tabTo(page, named('Technical details'));
        await page.keyboard.press('Enter');
        await tabTo(page, named('Close'));
        expect(await accessibilityViolations(page)).toEqual([]);
        await page.keyboard.press('Escape');
        await details.waitFor({ state: 'detached' });
        // Focus goes back to the row it came from.
        expect((await focusProblem(page)).focused).toContain('Engagement letter.pdf');

        await tabTo(page, named('Verify…'), true);
        await page.keyboard.press('Enter');
        await page.getByRole('dialog', { name: 'Verify a document' }).waitFor();
        expect((await focusProblem(page)).problem).toBeNull();
        await page.keyboard.press('Escape');

        await tabTo(page, named('Save evidence…'));
        await page.keyboard.press('Enter');
        await page.getByText('Saved the evidence of 1 certification in', { exact: false }).waitFor();

        await tabTo(page, named('Settings'), true);
        await page.keyboard.press('Enter');
        const settings = page.getByRole('dialog', { name: 'Settings' });
        await settings.waitFor();
        await page.keyboard.press('ArrowDown'); // the environment: the service's sandbox
        await tabTo(page, named('Save'));
        await tabTo(page, named('Close'), true);
        await page.keyboard.press('Enter');
        await settings.waitFor({ state: 'detached' });
      }
    },
    120_000,
  );
});
