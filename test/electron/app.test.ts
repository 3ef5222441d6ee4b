import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs helper shared with `npm start`, without type declarations.
import { WHY_NO_ELECTRON, electronBinary } from '../../scripts/electron-binary.mjs';

// The real Electron app, driven by Playwright. It runs where Electron's binary is installed; here
// (no internet, so no binary) it is skipped — and says why — rather than faked. The binary is looked
// up without requiring the `electron` package, which would try to download it and hang.
const binary = (electronBinary as () => string | null)();
if (!binary) process.stdout.write(`Electron app tests skipped: ${WHY_NO_ELECTRON as string}\n`);

describe.skipIf(!binary)('the Electron app', () => {
  it('opens a locked-down window and certifies a file given on the command line until it is anchored', async () => {
    // The app was built by the global setup (test/support/build-once.ts).
    const dir = mkdtempSync(join(tmpdir(), 'evidence-electron-'));
    const file = join(dir, 'deed.pdf');
    writeFileSync(file, 'a deed');
    const app = await electron.launch({
      executablePath: binary as string,
      args: ['.', file],
      env: { ...process.env, EVIDENCE_DESK_DATA_DIR: join(dir, 'data') },
    });
    try {
      const page = await app.firstWindow();
      // Context isolation, sandbox and no Node integration, seen from the page: no Node at all, only the bridge.
      expect(
        await page.evaluate(() => [
          typeof (globalThis as { require?: unknown }).require,
          typeof (globalThis as { process?: unknown }).process,
        ]),
      ).toEqual(['undefined', 'undefined']);
      expect(await page.evaluate(() => Object.isFrozen(window.evidenceDesk))).toBe(true);
      // Navigation away is blocked: waiting for it must time out, and the page stays ours.
      await page.evaluate(() => (window.location.href = 'https://example.invalid/'));
      await expect(page.waitForURL(/example\.invalid/, { timeout: 3_000 })).rejects.toThrow();
      expect(page.url()).toBe('app://evidence-desk/index.html');
      await page.getByRole('dialog', { name: 'Certify 1 item' }).waitFor();
      await page.getByRole('button', { name: 'Certify' }).click();
      await expect
        .poll(() => page.locator('[role="row"]:has-text("deed.pdf") .badge').textContent(), {
          timeout: 30_000,
        })
        .toBe('Anchored ✓ verified');
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
