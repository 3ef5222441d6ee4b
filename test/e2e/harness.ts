import { build } from 'esbuild';
import { existsSync, readFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { JSHandle, Page } from 'playwright-core';
import type { EvidenceCore } from '../../main/core';
import { CONTENT_SECURITY_POLICY } from '../../protocol/content-security-policy';
import { kitFolderIn } from '../../main/evidence/kit-folder';
import { createIpcInvoke, forwardCoreEvents } from '../../main/ipc/handlers';
import type { CallName } from '../../preload/channels';
import type { LanguageChoice } from '../../protocol/locales/languages';
import { silentLogger } from '../../main/logging/logger';
import type { TestWorkspace } from '../support/core';
import type { TestCoreOptions } from '../support/core';
import { openCore, workspace } from '../support/core';
import { afterEach } from 'vitest';
import { CHROMIUM, giveBack, reusablePage } from './window-pages';

export { CHROMIUM } from './window-pages';

const RENDERER = join(process.cwd(), 'dist/renderer');
export const SCREENSHOTS = join(process.cwd(), 'test-results/screenshots');
/**
 * Screenshots are for people to look at (`npm run screenshots`); they assert nothing, and taking
 * them all costs a tenth of the end-to-end tests' time, so a plain test run does not.
 */
export const SCREENSHOTS_WANTED = process.env.SCREENSHOTS === '1';
/** The smallest window the app supports, and a large one. */
export const SCREEN_SIZES = {
  small: { width: 800, height: 600 },
  large: { width: 1440, height: 900 },
} as const;
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};
export interface Harness {
  ws: TestWorkspace;
  core: EvidenceCore;
  page: Page;
  /** Makes files "droppable": the page's stand-in for webUtils maps their names to real paths. */
  registerPaths(paths: string[]): Promise<void>;
  /** Drops files (by registered name) onto the window, as a person would with the mouse. */
  drop(paths: string[]): Promise<void>;
  /**
   * The dragged files, as the system hands them to the window (built in the page, a stand-in for
   * the operating system's drag: 10,000 take seconds there), ready for `dropTransfer`.
   */
  dragTransfer(paths: string[]): Promise<JSHandle<DataTransfer>>;
  /** Lets go of files dragged onto the window. */
  dropTransfer(transfer: JSHandle<DataTransfer>): Promise<void>;
  screenshot(name: string): Promise<string>;
  /** The page as it is now, light and dark, at 800×600 and 1440×900 (NAME-light-small.png …). */
  screenshotEverywhere(name: string): Promise<void>;
  /** The paths "Show in folder" asked the system's file manager to show (a stand-in records them). */
  shownInFolder: string[];
  /** The files handed to the system's drag and drop (a stand-in records them). */
  dragged: string[];
  /** What the shell was told: launch at login (as the OS would keep it), language changes. */
  shell: { launchAtLogin: boolean; languages: LanguageChoice[] };
  /** Makes these calls answer with an error, as a failing main process would (fault injection). */
  failCalls(names: CallName[]): void;
  /** The next folder dialog stays open until `choose` is called, as a person still choosing. */
  holdFolderChoice(): { opened: Promise<void>; choose(): void };
  close(): Promise<void>;
}

let pageBridge: string | undefined;
let rendererServed: Promise<string> | undefined;

/**
 * The built renderer, served as the app's protocol serves it (its CSP on every answer), at one
 * origin for the whole worker: Chromium keeps the scripts it compiled for an origin it saw before,
 * so each test's page loads the app without compiling it again. The server ends with the worker.
 */
function rendererOrigin(): Promise<string> {
  rendererServed ??= new Promise((resolve) => {
    const server = createServer((request, response) => {
      const path = normalize(
        join(RENDERER, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)),
      );
      const file = path.endsWith('/') ? join(path, 'index.html') : path;
      if (!file.startsWith(RENDERER) || !existsSync(file)) return void response.writeHead(404).end();
      response
        .writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'content-security-policy': CONTENT_SECURITY_POLICY,
          // Hashed bundle names: a new build is a new name, so the scripts may be kept.
          'cache-control': file.endsWith('.html') ? 'no-cache' : 'max-age=3600, immutable',
        })
        .end(readFileSync(file));
    });
    server.unref();
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
  return rendererServed;
}

/** What a reused page's bindings reach: the harness using the page now. */
interface Tenant {
  invoke(name: CallName, input: unknown): Promise<unknown>;
  errors: string[];
}
const tenants = new WeakMap<Page, Tenant>();

/** Made once per page: the bridge and what it reports go to whichever harness uses the page now. */
async function prepareWindow(page: Page): Promise<void> {
  page.on('pageerror', (error) => tenants.get(page)?.errors.push(error.message));
  // The page runs under the app's strict CSP (no inline styles or scripts): anything it refuses is a defect.
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      tenants.get(page)?.errors.push(message.text());
  });
  await page.exposeFunction('__edInvoke', (name: CallName, input: unknown) => {
    const tenant = tenants.get(page);
    if (!tenant) throw new Error(`${name} was called by a page no test is using`);
    return tenant.invoke(name, input);
  });
  await page.addInitScript({ content: pageBridge as string });
  // Unless the address asks for a first batch, the window remembers "Signed" from an earlier one.
  await page.addInitScript(() => {
    if (location.protocol === 'http:' && !location.search.includes('first-batch'))
      if (!localStorage.getItem('evidence-desk:last-batch'))
        localStorage.setItem('evidence-desk:last-batch', JSON.stringify({ event_type: 'DOCUMENT_SIGNED' }));
  });
}

/** The built renderer in real Chromium, talking to a real core through the preload's bridge factory. */
export async function startHarness(
  options: {
    core?: TestCoreOptions;
    before?(core: EvidenceCore, ws: TestWorkspace): Promise<void>;
    /** The computer's language as the browser reports it (navigator.languages); en-GB unless given. */
    locale?: string;
    /**
     * A window that has never certified: its first batch asks what happened. Otherwise the
     * window remembers "Signed" from an earlier batch, as after a person's first one.
     */
    firstBatch?: boolean;
  } = {},
): Promise<Harness> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is required for end-to-end tests (${CHROMIUM}); apt-get install chromium`);
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npm run build');
  pageBridge ??= (
    await build({
      entryPoints: ['test/e2e/page-bridge.ts'],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
    })
  ).outputFiles[0]?.text;
  const ws = workspace('evidence-e2e-');
  const core = await openCore(ws.dataDir, options.core);
  await options.before?.(core, ws);
  // Stand-in for Electron's native folder dialog (it cannot run here): the person "chooses" saved/.
  const shownInFolder: string[] = [];
  // Stand-in for Electron's webContents.startDrag (the system's drag and drop): records the files.
  const dragged: string[] = [];
  // Stand-in for Electron's login items and menus: records what the app asked of them.
  const shell = { launchAtLogin: false, languages: [] as LanguageChoice[] };
  let heldFolderChoice: { open(): void; chosen: Promise<void> } | undefined;
  const invoke = createIpcInvoke(core, silentLogger, {
    chooseExportFolder: async () => {
      const held = heldFolderChoice;
      heldFolderChoice = undefined;
      held?.open();
      await held?.chosen;
      return kitFolderIn(join(ws.dir, 'saved'));
    },
    chooseRegisterFile: async (suggestedName) => {
      mkdirSync(join(ws.dir, 'saved'), { recursive: true });
      return join(ws.dir, 'saved', suggestedName);
    },
    // Stand-in for the folder dialog: the person "chooses" inbox/ in the workspace.
    chooseFolderToWatch: async () => {
      mkdirSync(join(ws.dir, 'inbox'), { recursive: true });
      return join(ws.dir, 'inbox');
    },
    // Stand-in for the folder dialog: the documents were moved to moved/ in the workspace.
    chooseDocumentsFolder: async () => {
      mkdirSync(join(ws.dir, 'moved'), { recursive: true });
      return join(ws.dir, 'moved');
    },
    chooseReportFile: async (suggestedName) => {
      mkdirSync(join(ws.dir, 'saved'), { recursive: true });
      return join(ws.dir, 'saved', suggestedName);
    },
    chooseCertificateFile: async (suggestedName) => {
      mkdirSync(join(ws.dir, 'saved'), { recursive: true });
      return join(ws.dir, 'saved', suggestedName);
    },
    showInFolder: (path) => void shownInFolder.push(path),
    startDrag: (path) => void dragged.push(path),
    launchAtLogin: () => shell.launchAtLogin,
    setLaunchAtLogin: (on) => void (shell.launchAtLogin = on),
    languageChanged: (language) => void shell.languages.push(language),
  });
  const failing = new Set<CallName>();
  const locale = options.locale ?? 'en-GB';
  const page = await reusablePage(locale, prepareWindow);
  const errors: string[] = [];
  tenants.set(page, {
    errors,
    invoke: async (name, input) =>
      failing.has(name)
        ? { ok: false, error: { code: 'internal_error', message: 'Evidence Desk could not read its queue.' } }
        : invoke(name, input),
  });
  const stopEvents = forwardCoreEvents(core, (event, payload) => {
    void page
      .evaluate(([e, p]) => (window as unknown as { __edEmit(e: string, p: unknown): void }).__edEmit(e, p), [
        event,
        payload,
      ] as const)
      .catch(() => undefined);
  });
  await page.goto(`${await rendererOrigin()}/${options.firstBatch ? '?first-batch' : ''}`);

  const harness: Harness = {
    ws,
    core,
    page,
    registerPaths: async (paths) => {
      const table = Object.fromEntries(paths.map((path) => [path.split('/').at(-1) as string, path]));
      await page.evaluate(
        (entries) =>
          Object.assign((window as unknown as { __edPaths: Record<string, string> }).__edPaths, entries),
        table,
      );
    },
    drop: async (paths) => harness.dropTransfer(await harness.dragTransfer(paths)),
    dragTransfer: async (paths) => {
      await harness.registerPaths(paths);
      const names = paths.map((path) => path.split('/').at(-1) as string);
      return page.evaluateHandle((fileNames) => {
        const data = new DataTransfer();
        for (const name of fileNames) data.items.add(new File(['(contents stay on disk)'], name));
        return data;
      }, names);
    },
    dropTransfer: async (transfer) => {
      await page.dispatchEvent('[data-testid="drop-zone"]', 'dragover', { dataTransfer: transfer });
      await page.dispatchEvent('[data-testid="drop-zone"]', 'drop', { dataTransfer: transfer });
    },
    shownInFolder,
    dragged,
    shell,
    failCalls: (names) => {
      failing.clear();
      names.forEach((name) => failing.add(name));
    },
    holdFolderChoice: () => {
      let open!: () => void;
      let choose!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      heldFolderChoice = { open, chosen: new Promise((resolve) => (choose = resolve)) };
      return { opened, choose };
    },
    screenshot: async (name) => {
      const path = join(SCREENSHOTS, `${name}.png`);
      if (SCREENSHOTS_WANTED) await page.screenshot({ path });
      return path;
    },
    screenshotEverywhere: async (name) => {
      if (!SCREENSHOTS_WANTED) return;
      const before = page.viewportSize();
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const [size, viewport] of Object.entries(SCREEN_SIZES)) {
          await page.setViewportSize(viewport);
          await harness.screenshot(`${name}-${scheme}-${size}`);
        }
      }
      await page.emulateMedia({ colorScheme: 'light' });
      if (before) await page.setViewportSize(before);
    },
    close: async () => {
      stopEvents();
      // What this window remembered must not reach the next test's (a port can be given out again).
      await page.evaluate(() => localStorage.clear()).catch(() => undefined);
      tenants.delete(page);
      await giveBack(page);
      await core.close();
      ws.cleanup();
      if (errors.length) throw new Error(`The page threw: ${errors.join('; ')}`);
    },
  };
  return harness;
}

/**
 * `page` as it is now, light and dark, at 800×600 and 1440×900 (NAME-light-small.png …), when
 * screenshots are wanted. Either way the page is left dark and large, as after the last one, so
 * what a test checks next is checked there.
 */
export async function screenshotVariants(
  page: Page,
  name: string,
  { fullPage = false, before }: { fullPage?: boolean; before?(): Promise<void> } = {},
): Promise<void> {
  for (const scheme of ['light', 'dark'] as const)
    for (const [size, viewport] of Object.entries(SCREEN_SIZES)) {
      if (!SCREENSHOTS_WANTED && !(scheme === 'dark' && size === 'large')) continue;
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize(viewport);
      await before?.();
      if (SCREENSHOTS_WANTED)
        await page.screenshot({ path: join(SCREENSHOTS, `${name}-${scheme}-${size}.png`), fullPage });
    }
}

/** Serious and critical accessibility violations on the page as it is now (axe-core). */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugger protocol, as the page's strict CSP (rightly) refuses injected script tags.
  await page.evaluate(readFileSync(join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(): Promise<{ violations: { id: string; impact: string; help: string; nodes: unknown[] }[] }>;
        };
      }
    ).axe;
    return (await axe.run()).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      count: v.nodes.length,
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.count}×): ${v.help}`);
}

/** For a test file (the app is built once per run, by the global setup): closes each test's harness when the test ends. */
export function harnessPerTest(): { start(options?: Parameters<typeof startHarness>[0]): Promise<Harness> } {
  let current: Harness | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return { start: async (options) => (current = await startHarness(options)) };
}
