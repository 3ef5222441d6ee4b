import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EvidenceCore } from '../../main/core';
import type { ConnectivityStatus } from '../../main/sync/sync-engine';
import type { Sandbox } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';
import type { TestWorkspace } from '../support/core';
import { METADATA, manyFiles, openCore, useSandboxProfile, workspace } from '../support/core';
import { englishOf } from '../support/english';

let ws: TestWorkspace;
let core: EvidenceCore | undefined;
let sandbox: Sandbox | undefined;
beforeEach(() => {
  ws = workspace('evidence-sync-');
});
afterEach(async () => {
  await core?.close();
  await sandbox?.stop();
  core = undefined;
  sandbox = undefined;
  ws.cleanup();
});

const TEST_PACING = {
  submit: { baseMs: 200, capMs: 2000 },
  offlineProbe: { baseMs: 200, capMs: 2000 },
  pollFirstMs: 300,
  pollCapMs: 2000,
};

const startService = (options: Parameters<typeof startSandbox>[0] = {}) =>
  startSandbox({ dbPath: join(ws.dir, 'service.sqlite'), port: 0, batchIntervalMs: 200, ...options });

/** The service holds exactly one certification per local row, and they agree on ids. */
function expectNoDuplicates(service: Sandbox, local: EvidenceCore): void {
  const remote = service.db
    .prepare('SELECT id, request_id AS requestId, asset_hash AS assetHash FROM certifications')
    .all() as { id: string; requestId: string; assetHash: string }[];
  const rows = local.queue.list({ limit: 100_000 });
  const sent = rows.filter((row) => row.serviceId !== null);
  expect(remote).toHaveLength(sent.length);
  expect(new Set(remote.map((r) => r.requestId)).size).toBe(remote.length);
  const byId = new Map(remote.map((r) => [r.id, r]));
  for (const row of sent)
    expect(byId.get(row.serviceId as string)).toMatchObject({
      requestId: row.requestId,
      assetHash: row.assetHash,
    });
}

describe('syncing through a hostile network', () => {
  it('ends every certification anchored or failed for a reason, none duplicated, through 5xx, 429, drops, latency, expiring tokens and anchoring failures', async () => {
    sandbox = await startService({
      rateLimit: { max: 25, windowMs: 1000 },
      faults: {
        errorRate: 0.2,
        dropRate: 0.1,
        dropResponseRate: 0.25,
        latencyMs: 20,
        tokenLifetimeSeconds: 2,
        anchorFailureRate: 0.15,
      },
    });
    // Production pacing waits up to minutes between tries; the same engine, less patient, ends this in seconds.
    core = await openCore(ws.dataDir, { pacing: TEST_PACING });
    await useSandboxProfile(core, sandbox);
    const report = await core.certify(manyFiles(ws, 40), METADATA);
    expect(report.queued).toHaveLength(40);
    const rows = await core.sync.waitUntilSettled(report.queued, 120_000);

    const anchored = rows.filter((row) => row.state === 'anchored');
    const failed = rows.filter((row) => row.state === 'failed');
    expect(anchored.length + failed.length).toBe(40);
    expect(anchored.every((row) => row.verification === 'verified')).toBe(true);
    // The only final failures are the anchoring failures the service reported, each with its reason.
    for (const row of failed)
      expect([row.errorCode, englishOf(row.errorMessage)]).toEqual([
        'service_failed',
        expect.stringMatching(/fault injection/),
      ]);
    expect(failed.length).toBeGreaterThan(0);
    expect(anchored.length).toBeGreaterThan(20);
    // The faults really happened: some rows needed several tries.
    expect(
      rows.some(
        (row) => core!.queue.details(row.id).history.filter((h) => h.state === 'submitting').length > 1,
      ),
    ).toBe(true);
    expectNoDuplicates(sandbox, core);
  }, 150_000);
});

describe('offline and back', () => {
  it('waits without busy-looping while the service is down, shows it, and drains the queue when it is back', async () => {
    sandbox = await startService();
    const port = Number(new URL(sandbox.baseUrl).port);
    core = await openCore(ws.dataDir);
    await useSandboxProfile(core, sandbox);
    await sandbox.stop();
    sandbox = undefined;

    const statuses: ConnectivityStatus[] = [];
    core.on('connectivity', (status) => statuses.push(status));
    const report = await core.certify(manyFiles(ws, 12), METADATA);
    const rowIds = report.queued;
    /** When each attempt to send any of the rows began, in order. */
    const attempts = () =>
      rowIds
        .flatMap((id) =>
          core!.queue
            .details(id)
            .history.filter((h) => h.state === 'submitting')
            .map((h) => h.at),
        )
        .sort((a, b) => a - b);
    await expect.poll(() => core!.status().connectivity.state, { timeout: 5000 }).toBe('offline');
    expect(englishOf(core.status().connectivity.message)).toMatch(/cannot be reached/);
    // The attempt that found the service down is the first of them.
    const whenOffline = attempts().length;
    expect(whenOffline).toBeGreaterThan(0);
    // A document certified now waits for the planned probe too; it is not sent at once.
    const probeAt = core.status().connectivity.nextProbeAt!;
    const late = await core.certify(ws.files({ 'late.txt': 'certified while offline' }), METADATA);
    rowIds.push(late.queued[0]!);
    await expect.poll(() => attempts().length, { timeout: 10_000 }).toBeGreaterThan(whenOffline);
    expect(attempts()[whenOffline]).toBeGreaterThanOrEqual(probeAt);
    // Offline, one row probes at growing intervals (0.5 s, then up to 1, 2, 4 s); the rest wait.
    // The next two probes, as they happen: one row each, never a burst of the whole queue.
    await expect.poll(() => attempts().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(whenOffline + 2);
    const [before, first, second] = attempts().slice(whenOffline - 1);
    expect(first! - before!).toBeGreaterThanOrEqual(400);
    expect(second! - first!).toBeGreaterThanOrEqual(400);
    // All still unsent; one may be out as a probe at this instant.
    const { queued, submitting } = core.status().counts;
    expect(queued + submitting).toBe(13);

    sandbox = await startService({ port });
    const rows = await core.sync.waitUntilSettled(rowIds, 60_000);
    expect(rows.every((row) => row.state === 'anchored' && row.verification === 'verified')).toBe(true);
    expect(statuses.at(-1)?.state).toBe('online');
    expectNoDuplicates(sandbox, core);
  }, 90_000);

  it('resumes after a restart exactly where the table says', async () => {
    sandbox = await startService({ faults: { anchoringPaused: true } });
    core = await openCore(ws.dataDir);
    await useSandboxProfile(core, sandbox);
    const report = await core.certify(manyFiles(ws, 5), METADATA);
    await expect.poll(() => core!.status().counts.pending, { timeout: 10_000 }).toBe(5);
    await core.close();

    sandbox.setFaults({ anchoringPaused: false });
    core = await openCore(ws.dataDir);
    expect(core.activeProfileId).toBe('test-sandbox');
    const rows = await core.sync.waitUntilSettled(report.queued, 30_000);
    expect(rows.every((row) => row.state === 'anchored')).toBe(true);
    expectNoDuplicates(sandbox, core);
  }, 60_000);
});

describe('two senders on one queue', () => {
  it('lets one send while the other stands by, and hands over when the first stops', async () => {
    sandbox = await startService({ faults: { anchoringPaused: true } });
    core = await openCore(ws.dataDir);
    await useSandboxProfile(core, sandbox);
    const first = await core.certify(manyFiles(ws, 3), METADATA);
    await expect.poll(() => core!.status().counts.pending, { timeout: 10_000 }).toBe(3);

    const second = await openCore(ws.dataDir);
    try {
      const more = await second.certify(ws.files({ 'late.pdf': 'late' }), METADATA);
      await expect.poll(() => second.status().connectivity.state, { timeout: 5000 }).toBe('standby');
      expect(englishOf(second.status().connectivity.message)).toMatch(
        /Evidence Desk app on this computer is sending/,
      );
      // The first sender picks up the second's row too: it is the one holding the queue.
      await expect.poll(() => core!.status().counts.pending, { timeout: 10_000 }).toBe(4);

      await core.close();
      core = undefined;
      sandbox.setFaults({ anchoringPaused: false });
      const rows = await second.sync.waitUntilSettled([...first.queued, ...more.queued], 30_000);
      expect(rows.every((row) => row.state === 'anchored')).toBe(true);
      expectNoDuplicates(sandbox, second);
    } finally {
      await second.close();
    }
  }, 60_000);
});
