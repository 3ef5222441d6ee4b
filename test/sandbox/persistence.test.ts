import { catchUpLogNodes } from '../../sandbox/log-nodes';
import { openSandboxDb } from '../../sandbox/db';
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consistencyHolds } from '../../verifier/consistency';
import { verifySandboxEvidence } from '../../verifier/sandbox-evidence';
import { startSandbox } from '../../sandbox/server';
import { certificationBody, fetchToken, getCertification, postCertification } from '../support/sandbox';

let dir: string;
let dbPath: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-sandbox-restart-'));
  dbPath = join(dir, 'sandbox.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const start = () => startSandbox({ dbPath, port: 0, batchIntervalMs: 3_600_000 });

describe('persistence across a restart', () => {
  it('keeps clients, tokens, certifications, idempotency records, the log and its key', async () => {
    const first = await start();
    const token = await fetchToken(first.tokenUrl, first.demoClient);
    const body = certificationBody();
    const requestId = randomUUID();
    const anchored = (await (await postCertification(first.baseUrl, body, { token, requestId })).json()) as {
      id: string;
    };
    first.anchorNow();
    const pending = (await (
      await postCertification(first.baseUrl, certificationBody(), { token })
    ).json()) as { id: string };
    const keyBefore = first.logKey.keyId;
    await first.stop();

    const second = await start();
    try {
      expect(second.demoClient).toEqual(first.demoClient);
      expect(second.logKey.keyId).toBe(keyBefore);
      // The token issued before the restart still works.
      const record = (await (await getCertification(second.baseUrl, anchored.id, token)).json()) as {
        state: string;
        evidence: unknown;
      };
      expect(record.state).toBe('anchored');
      const logPublicKey = second.logKey.publicKeyDer.toString('base64');
      expect(
        verifySandboxEvidence(record.evidence, { assetHash: String(body.asset_hash), logPublicKey }),
      ).toMatchObject({ verified: true });
      const replay = await postCertification(second.baseUrl, body, { token, requestId });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      // The log grows on from where it was: the pending one becomes leaf 1 of a 2-leaf tree.
      expect(second.anchorNow()).toEqual({ anchored: 1, failed: 0, treeSize: 2 });
      const later = (await (await getCertification(second.baseUrl, pending.id, token)).json()) as {
        evidence: { leaf_index: number };
      };
      expect(later.evidence.leaf_index).toBe(1);
    } finally {
      await second.stop();
    }
  });

  it('fills in the subtrees of a log anchored before they were kept, and grows on from it', async () => {
    const first = await start();
    const token = await fetchToken(first.tokenUrl, first.demoClient);
    const bodies = Array.from({ length: 5 }, () => certificationBody());
    const ids: string[] = [];
    for (const [i, body] of bodies.entries()) {
      ids.push(
        ((await (await postCertification(first.baseUrl, body, { token })).json()) as { id: string }).id,
      );
      if (i === 2) first.anchorNow();
    }
    await first.stop();
    // What a sandbox from before the subtrees were kept left: three leaves, nothing else of the log.
    const db = new Database(dbPath);
    db.exec('DROP TABLE log_nodes');
    db.pragma('user_version = 1');
    db.close();
    // Brought up to date and filled in two leaves at a time, as a log of many thousands is, in turns.
    const upgraded = openSandboxDb(dbPath);
    catchUpLogNodes(upgraded, 2);
    upgraded.close();

    const second = await start();
    try {
      expect(second.anchorNow()).toEqual({ anchored: 2, failed: 0, treeSize: 5 });
      const logPublicKey = second.logKey.publicKeyDer.toString('base64');
      type Head = { tree_size: number; root_hash: string };
      const heads: Head[] = [];
      for (const [i, id] of ids.entries()) {
        const { evidence } = (await (await getCertification(second.baseUrl, id, token)).json()) as {
          evidence: { signed_tree_head: Head };
        };
        expect(
          verifySandboxEvidence(evidence, { assetHash: String(bodies[i]?.asset_hash), logPublicKey }),
          `certification ${i}`,
        ).toMatchObject({ verified: true });
        heads.push(evidence.signed_tree_head);
      }
      const [older, newer] = [heads[0], heads[4]] as [Head, Head];
      expect([older.tree_size, newer.tree_size]).toEqual([3, 5]);
      const { consistency } = (await (
        await fetch(`${second.baseUrl}/v1/log/consistency?first=3&second=5`)
      ).json()) as {
        consistency: string[];
      };
      const hex = (text: string) => Buffer.from(text, 'hex');
      expect(consistencyHolds(3, 5, hex(older.root_hash), hex(newer.root_hash), consistency.map(hex))).toBe(
        true,
      );
    } finally {
      await second.stop();
    }
  });

  it('frees a request id left in flight by a crash, so the client’s retry goes through once', async () => {
    const first = await start();
    const token = await fetchToken(first.tokenUrl, first.demoClient);
    await first.stop();
    // What a crash between claiming the id and storing the certification leaves behind.
    const requestId = randomUUID();
    const db = new Database(dbPath);
    db.prepare(
      "INSERT INTO idempotency (client_id, request_id, body_hash, in_flight, created_at) VALUES (?, ?, 'x', 1, ?)",
    ).run(first.demoClient.clientId, requestId, Date.now());
    db.close();

    const second = await start();
    try {
      const retry = await postCertification(second.baseUrl, certificationBody(), { token, requestId });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      await second.stop();
    }
  });

  it('refuses a database written by a newer sandbox and leaves it untouched', async () => {
    const db = new Database(dbPath);
    db.pragma('user_version = 99');
    db.close();
    await expect(start()).rejects.toThrow(/newer version.*left untouched/);
    const check = new Database(dbPath);
    expect(check.pragma('user_version', { simple: true })).toBe(99);
    check.close();
  });
});
