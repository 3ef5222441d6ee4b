import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
/** The window size a page has unless a test changes it (and as it is given to the next test). */
export const WINDOW = { width: 1200, height: 800 } as const;

let browser: Promise<Browser> | undefined;
const contexts = new Map<string, Promise<BrowserContext>>();
type Prepare = (page: Page) => Promise<void>;
/** Pages given back, by how they were prepared and their language: a page serves its own kind only. */
const idle = new Map<Prepare, Map<string, Page[]>>();
const kindOf = new WeakMap<Page, { prepare: Prepare; locale: string }>();

/**
 * One Chromium for all the pages of a test worker (which runs file after file): launching a
 * browser, a context and a first page costs more than most tests. Playwright ends it with the
 * worker.
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
 * One browser context per computer language for the worker's pages. A new context costs Chromium
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
export async function reusablePage(locale: string, prepare: Prepare): Promise<Page> {
  const ready = idle.get(prepare)?.get(locale)?.pop();
  if (ready) return ready;
  const page = await (await sharedContext(locale)).newPage();
  await prepare(page);
  kindOf.set(page, { prepare, locale });
  return page;
}

/**
 * Gives a page back once its test is done with it, as a new one would be: on a blank document
 * (the app's timers and calls end with it), light, at the usual size, with nothing it was granted,
 * and without the listeners the test added (`kept` are the ones made with the page).
 */
export async function giveBack(page: Page, kept: readonly string[] = []): Promise<void> {
  await page.goto('about:blank');
  await page.context().clearPermissions();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(WINDOW);
  for (const event of ['filechooser', 'dialog', 'request', 'download', 'popup'])
    if (!kept.includes(event)) page.removeAllListeners(event);
  const { prepare, locale } = kindOf.get(page) as { prepare: Prepare; locale: string };
  const byLocale = idle.get(prepare) ?? new Map<string, Page[]>();
  byLocale.set(locale, [...(byLocale.get(locale) ?? []), page]);
  idle.set(prepare, byLocale);
}
