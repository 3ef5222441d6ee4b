import type { Page } from 'playwright-core';

/**
 * Times the page's own thread by a heartbeat every 10 ms: the longest gap between beats is the
 * longest the window was held. Chromium here reports no long tasks (PerformanceObserver stays
 * silent even for a freeze made on purpose). Sent as text: a function compiled by tsx carries a
 * name helper the page does not know. `longest()` reads the gap so far; `reset()` starts again.
 */
export async function watchPageThread(
  page: Page,
): Promise<{ longest(): Promise<number>; reset(): Promise<void> }> {
  await page.evaluate(`window.__longestGap = 0;
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      window.__longestGap = Math.max(window.__longestGap, now - last);
      last = now;
    }, 10);`);
  return {
    longest: () => page.evaluate('window.__longestGap') as Promise<number>,
    reset: () => page.evaluate('window.__longestGap = 0') as Promise<void>,
  };
}
