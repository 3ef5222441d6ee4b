import Database from 'better-sqlite3';
import { CLI } from '../support/cli';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EvidenceCore } from '../../main/core';
import type { Logger } from '../../main/logging/logger';
import { KeychainSecretStore } from '../../main/secrets/secret-store';
import type { Sandbox } from '../../sandbox/server';
import type { TestWorkspace } from '../support/core';
import { METADATA, manyFiles, useSandboxProfile, workspace } from '../support/core';
import { countingProxy } from '../support/counting-proxy';
import { startTestSandbox } from '../support/sandbox';

// One sender per queue, proved with two real senders on one real queue file against the real
// sandbox: two cores in this process (each its own connection and lease identity), or this
// process and the CLI in another.
let ws: TestWorkspace;
let sandbox: Sandbox;
let proxy: Awaited<ReturnType<typeof countingProxy>>;
const opened: EvidenceCore[] = [];
beforeEach(async () => {
  ws = workspace('evidence-lease-');
  sandbox = await startTestSandbox({ batchIntervalMs: 200 });
  proxy = await countingProxy(sandbox.baseUrl);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((core) => core.close()));
  await proxy.close();
  await sandbox.stop();
  ws.cleanup();
});

// A lease far shorter than one batch: the first sender must keep it alive while its requests are on
// the wire. A sender standing by looks again every second, not every 5 s.
const LEASE = { ttlMs: 1200, renewMs: 400, standbyLookMs: 1000 };

async function sender(options: { sync: boolean; log?: Logger }): Promise<EvidenceCore> {
  const core = await EvidenceCore.open({
    dataDir: ws.dataDir,
    secrets: new KeychainSecretStore(),
    concurrency: 2,
    leaseTiming: LEASE,
    ...options,
  });
  opened.push(core);
  return core;
}

const memoryLog = () => {
  const events: string[] = [];
  return { events, log: { log: (_level: string, event: string) => void events.push(event) } as Logger };
};

describe('the sync lease', () => {
  it('holds through a batch slower than the lease: a second sender stands by and no request is sent twice', async () => {
    sandbox.setFaults({ latencyMs: 700 });
    const first = memoryLog();
    const a = await sender({ sync: false, log: first.log });
    await useSandboxProfile(a, { ...sandbox, baseUrl: proxy.url }, 'lease-test');
    const { queued } = await a.certify(manyFiles(ws, 16), METADATA);
    a.sync.start();
    // 8 rows claimed, 2 at a time, 0.7 s each: the first batch alone outlasts the lease twice over.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const second = memoryLog();
    const b = await sender({ sync: true, log: second.log });
    const settled = await a.sync.waitUntilSettled(queued, 60_000);

    expect(settled.map((row) => row.state)).toEqual(Array(16).fill('anchored'));
    expect(proxy.posts.size).toBe(16);
    expect([...proxy.posts.values()].filter((count) => count > 1)).toEqual([]);
    expect(b.status().connectivity.state).toBe('standby');
    expect(first.events).not.toContain('sync.lease_lost');
    expect(second.events).not.toContain('sync.resumed');
  }, 90_000);

  it('stops sending at once when another process takes its lease, says so in the log, and loses nothing', async () => {
    sandbox.setFaults({ latencyMs: 500 });
    const first = memoryLog();
    const a = await sender({ sync: false, log: first.log });
    await useSandboxProfile(a, { ...sandbox, baseUrl: proxy.url }, 'lease-test');
    const { queued } = await a.certify(manyFiles(ws, 16), METADATA);
    a.sync.start();
    const sent = () => [...proxy.posts.values()].reduce((sum, n) => sum + n, 0);
    await expect.poll(sent, { timeout: 5_000 }).toBeGreaterThan(0);
    // Someone else now holds the lease (as after this process froze for longer than the lease).
    const raw = new Database(join(ws.dataDir, 'queue.sqlite'));
    raw.prepare(`UPDATE sync_lease SET holder = 'another-process', expires_at = ?`).run(Date.now() + 60_000);
    await expect.poll(() => first.events, { timeout: 5_000 }).toContain('sync.lease_lost');
    const sentWhenLost = sent();
    // The engine looks again, finds the lease taken and stands by: from then on it sends nothing.
    await expect.poll(() => a.status().connectivity.state, { timeout: 10_000 }).toBe('standby');
    // Nothing more went out after the lease was lost (at most what was already on the wire answered).
    expect(sent()).toBe(sentWhenLost);
    expect(sentWhenLost).toBeLessThan(16);

    // The other process goes away: this one takes over again and finishes everything.
    raw.prepare('DELETE FROM sync_lease').run();
    raw.close();
    const settled = await a.sync.waitUntilSettled(queued, 60_000);
    expect(settled.map((row) => row.state)).toEqual(Array(16).fill('anchored'));
    expect(first.events).not.toContain('sync.row_failed_unexpectedly');
  }, 90_000);

  it('lets a standby `sync --wait` finish as soon as another process has anchored everything', async () => {
    sandbox.setFaults({ latencyMs: 200 });
    const a = await sender({ sync: false });
    await useSandboxProfile(a, sandbox, 'lease-test');
    const { queued } = await a.certify(manyFiles(ws, 12), METADATA);
    a.sync.start();
    await expect.poll(() => a.status().connectivity.state, { timeout: 10_000 }).toBe('online');

    const started = Date.now();
    const child = spawn(process.execPath, [...CLI, 'sync', '--wait', '--json', '--data-dir', ws.dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));

    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ counts: { anchored: queued.length, queued: 0, pending: 0 } });
    // Standing by, it heard the other process's progress: no 10-minute timeout, no lease takeover.
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
