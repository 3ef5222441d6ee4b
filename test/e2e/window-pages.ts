import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
/** The window size a page has unless a test changes it (and as it is given to the next test). */
export const WINDOW = { width: 1200, height: 800 } as const;

let browser: Promise<Browser> | undefined;
const contexts = new Map<string, Promise<BrowserContext>>();
const idle = new Map<string, Page[]>();

/**
 * One Chromium for a test file's pages: launching a browser costs more than most steps a test
 * takes.
 */
function sharedBrowser(): Promise<Browser> {
  browser ??= chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return browser;
}

/**
 * One browser context per computer language for a test file's pages. A new context costs Chromium
 * about 2.5 CPU-seconds more than a new page: a tenth of the whole suite's.
 */
export function sharedContext(locale: string): Promise<BrowserContext> {
  let context = contexts.get(locale);
  if (!context) {
    context = sharedBrowser().then((shared) =>
      shared.newContext({ viewport: WINDOW, locale, timezoneId: 'Europe/Berlin' }),
    );
    contexts.set(locale, context);
  }
  return context;
}

/**
 * A page for the next test, reused from an earlier one where there is one: its renderer has
 * compiled the app's scripts already, so loading them again costs about 0.6 CPU-seconds instead
 * of 2.7 in a new page. `prepare` runs once, on a page just made (bindings, init scripts).
 */
export async function reusablePage(locale: string, prepare: (page: Page) => Promise<void>): Promise<Page> {
  const ready = idle.get(locale)?.pop();
  if (ready) return ready;
  const page = await (await sharedContext(locale)).newPage();
  await prepare(page);
  return page;
}

/**
 * Gives a page back once its test is done with it, as a new one would be: on a blank document
 * (the app's timers and calls end with it), light, at the usual size, with nothing it was granted,
 * and without the listeners the test added (`kept` are the ones made with the page).
 */
export async function giveBack(locale: string, page: Page, kept: readonly string[] = []): Promise<void> {
  await page.goto('about:blank');
  await page.context().clearPermissions();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(WINDOW);
  for (const event of ['filechooser', 'dialog', 'request', 'download', 'popup'])
    if (!kept.includes(event)) page.removeAllListeners(event);
  idle.set(locale, [...(idle.get(locale) ?? []), page]);
}

export async function closeSharedBrowser(): Promise<void> {
  const launched = browser;
  browser = undefined;
  contexts.clear();
  idle.clear();
  await (await launched)?.close();
}
