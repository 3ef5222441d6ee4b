import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { KeychainSecretStore } from '../../main/secrets/secret-store';
import { DEFAULT_PACING } from '../../main/service/retry-policy';
import type { Sandbox } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';
import { TEST_KEYCHAIN_SERVICE, filesHoldingSecrets, useSandboxProfile } from '../support/core';
import { accessibilityViolations, harnessPerTest } from './harness';

const harnesses = harnessPerTest();
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

describe('service down, then back', () => {
  it('shows the offline banner with what waits, and drains the queue when the service returns', async () => {
    const serviceDir = mkdtempSync(join(tmpdir(), 'evidence-e2e-service-'));
    onTestFinished(() => rmSync(serviceDir, { recursive: true, force: true }));
    const dbPath = join(serviceDir, 'service.sqlite');
    let port = 0;
    const harness = await harnesses.start({
      // Probes while offline a full minute apart (jitter pinned to its ceiling): the service's
      // return is noticed through "Try now", not by a probe that happens to come first.
      core: {
        pacing: { ...DEFAULT_PACING, offlineProbe: { baseMs: 60_000, capMs: 60_000 } },
        random: () => 0.999,
      },
      before: async (core) => {
        sandbox = await startSandbox({ dbPath, port: 0, batchIntervalMs: 300 });
        port = Number(new URL(sandbox.baseUrl).port);
        await useSandboxProfile(core, sandbox);
        await sandbox.stop();
        sandbox = undefined;
      },
    });
    const { page } = harness;
    const files = harness.ws.files({
      'minutes.pdf': 'minutes',
      'exhibit-a.pdf': 'exhibit a',
      'exhibit-b.pdf': 'exhibit b',
    });
    await harness.drop(files);
    await page.getByRole('button', { name: 'Certify' }).click();

    const banner = page.getByTestId('offline-banner');
    await banner.waitFor({ timeout: 15_000 });
    await expect
      .poll(() => banner.textContent(), { timeout: 10_000 })
      .toMatch(/cannot be reached\. 3 certifications are waiting/);
    await expect
      .poll(() => page.locator('[role="row"] .badge').allTextContents(), { timeout: 10_000 })
      .toEqual(['Waiting (offline)', 'Waiting (offline)', 'Waiting (offline)']);
    expect(await accessibilityViolations(page)).toEqual([]);
    await harness.screenshot('05-offline');

    sandbox = await startSandbox({ dbPath, port, batchIntervalMs: 300 });
    // A Try now that main could not carry out says why, and nothing is sent.
    harness.failCalls(['tryNow']);
    await page.getByRole('button', { name: 'Try now' }).click();
    await page.getByText('Evidence Desk could not read its queue.').waitFor();
    await harness.screenshotEverywhere('05b-try-now-failed');
    expect(await page.locator('[role="row"] .badge').allTextContents()).toEqual([
      'Waiting (offline)',
      'Waiting (offline)',
      'Waiting (offline)',
    ]);
    harness.failCalls([]);
    await page.getByRole('button', { name: 'Try now' }).click();
    for (const name of ['minutes.pdf', 'exhibit-a.pdf', 'exhibit-b.pdf']) {
      await expect
        .poll(() => page.locator(`[role="row"]:has-text("${name}") .badge`).textContent(), {
          timeout: 30_000,
        })
        .toBe('Anchored ✓ verified');
    }
    await banner.waitFor({ state: 'detached' });
  }, 90_000);
});

describe('settings', () => {
  it('saves a service profile with its secret in the keychain and nowhere in the queue files, and tests the connection', async () => {
    sandbox = await startSandbox({ dbPath: ':memory:', port: 0 });
    const client = sandbox.createClient({ name: 'e2e settings' });
    const harness = await harnesses.start();
    const { page } = harness;
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByLabel('Environment').selectOption('custom');
    await dialog.getByLabel('Profile name (lower case)').fill('firm-sandbox');
    await dialog.getByLabel('Service address (base URL)').fill(sandbox.baseUrl);
    await dialog.getByLabel('Token address (token URL)').fill(sandbox.tokenUrl);
    await dialog.getByLabel('Client id').fill(client.clientId);
    await dialog.getByLabel(/^Client secret/).fill(client.clientSecret);
    expect(await dialog.getByLabel(/^Client secret/).getAttribute('type')).toBe('password');
    expect(await accessibilityViolations(page)).toEqual([]);
    await harness.screenshot('06-settings');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await dialog.getByText(/^Connected: the service issued a token/).waitFor();
    // The field is emptied after saving; the label now says the secret is kept in the keychain.
    expect(await dialog.getByLabel(/^Client secret/).inputValue()).toBe('');

    expect(await new KeychainSecretStore(TEST_KEYCHAIN_SERVICE).get('firm-sandbox', 'client_secret')).toBe(
      client.clientSecret,
    );
    expect(harness.core.activeProfileId).toBe('firm-sandbox');
    const scan = filesHoldingSecrets(harness.ws.dataDir, [client.clientSecret]);
    expect(scan.files).toContain('queue.sqlite');
    expect(scan.holding).toEqual([]);
    await page.getByText('Demo environment').waitFor({ state: 'detached' });
  }, 60_000);
});

describe('refused credentials', () => {
  it("show in the indicator and a banner with the service's words, and point to Settings", async () => {
    const harness = await harnesses.start({
      before: async (core) => {
        sandbox = await startSandbox({ dbPath: ':memory:', port: 0, batchIntervalMs: 300 });
        await useSandboxProfile(core, {
          ...sandbox,
          createClient: () => ({ clientId: 'cl_nobody', clientSecret: 'cs_wrong' }),
        });
      },
    });
    const { page } = harness;
    await harness.drop(harness.ws.files({ 'deed.pdf': 'the deed' }));
    await page.getByRole('button', { name: 'Certify' }).click();
    const banner = page.getByTestId('offline-banner');
    await banner.getByText('The service refused the client credentials').waitFor();
    await banner.getByText('1 certification is waiting and will be sent once this is fixed.').waitFor();
    await page.getByText('Credentials refused').waitFor();
    // The queued row is listed, waiting, like any other.
    await page.getByRole('button', { name: 'deed.pdf', exact: true }).waitFor({ timeout: 5_000 });
    expect(await accessibilityViolations(page)).toEqual([]);
    await harness.screenshot('11-credentials-refused');
    await banner.getByRole('button', { name: 'Open Settings' }).click();
    await page.getByRole('dialog', { name: 'Settings' }).waitFor();
  }, 60_000);
});
