import Database from 'better-sqlite3';
import { CLI } from '../support/cli';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EvidenceCore } from '../../main/core';
import { KeychainSecretStore } from '../../main/secrets/secret-store';
import type { Sandbox } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';
import type { TestWorkspace } from '../support/core';
import { METADATA, manyFiles, useSandboxProfile, workspace } from '../support/core';

let ws: TestWorkspace;
let sandbox: Sandbox;
beforeEach(async () => {
  ws = workspace('evidence-crash-');
  // Slow, lossy replies keep requests on the wire long enough for kills to land mid-flight.
  sandbox = await startSandbox({
    dbPath: join(ws.dir, 'service.sqlite'),
    port: 0,
    batchIntervalMs: 200,
    faults: { latencyMs: 100, dropResponseRate: 0.2 },
  });
});
afterEach(async () => {
  await sandbox.stop();
  ws.cleanup();
});

function runSync(
  killAfterMs?: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  // node itself, not the tsx wrapper: SIGKILL must hit the process that does the work.
  const child = spawn(process.execPath, [...CLI, 'sync', '--wait', '--data-dir', ws.dataDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    // The clock starts at the first progress line, when sending has begun: how long the CLI took to
    // start (slow on a busy machine) must not decide whether a kill lands mid-flight.
    if (killAfterMs !== undefined && stderr === '') setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
}

describe('a crash at any instant', () => {
  it('never loses a queued certification and never creates a duplicate at the service', async () => {
    // Queue 150 files with the sync engine off, as if the app died right after hashing.
    const setup = await EvidenceCore.open({
      dataDir: ws.dataDir,
      secrets: new KeychainSecretStore(),
      sync: false,
    });
    // Its own profile id: the CLI's keychain is shared with other files running at the same time.
    await useSandboxProfile(setup, sandbox, 'crash-test');
    const { queued } = await setup.certify(manyFiles(ws, 150), METADATA);
    await setup.close();
    expect(queued).toHaveLength(150);

    let killedMidFlight = 0;
    for (let round = 0; round < 8; round++) {
      const result = await runSync(100 + Math.floor(Math.random() * 700));
      if (result.signal !== 'SIGKILL') break;
      const db = new Database(join(ws.dataDir, 'queue.sqlite'), { readonly: true });
      killedMidFlight += db
        .prepare(`SELECT COUNT(*) FROM certifications WHERE state = 'submitting'`)
        .pluck()
        .get() as number;
      db.close();
    }
    const final = await runSync();
    // Nothing but the wait's progress: no error, no warning.
    expect(
      final.stderr.split('\n').filter((line) => line && !line.startsWith('waiting for anchoring: ')),
    ).toEqual([]);
    expect(final.code).toBe(0);

    const local = await EvidenceCore.open({
      dataDir: ws.dataDir,
      secrets: new KeychainSecretStore(),
      sync: false,
    });
    try {
      const rows = local.queue.list({ limit: 1000 });
      expect(rows).toHaveLength(150);
      expect(rows.every((row) => row.state === 'anchored' && row.verification === 'verified')).toBe(true);
      const remote = sandbox.db
        .prepare('SELECT id, request_id AS requestId, asset_hash AS assetHash FROM certifications')
        .all() as { id: string; requestId: string; assetHash: string }[];
      expect(remote).toHaveLength(150);
      expect(new Set(remote.map((r) => r.assetHash)).size).toBe(150);
      const byService = new Map(remote.map((r) => [r.id, r]));
      for (const row of rows)
        expect(byService.get(row.serviceId as string)).toMatchObject({
          requestId: row.requestId,
          assetHash: row.assetHash,
        });
    } finally {
      await local.close();
    }
    // The kills did land while requests were on the wire, so the resume path was exercised.
    expect(killedMidFlight).toBeGreaterThan(0);
  }, 120_000);
});
