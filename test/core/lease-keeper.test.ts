import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../main/store';
import { openStore } from '../../main/store';
import { LeaseKeeper } from '../../main/sync/lease-keeper';
import type { TestWorkspace } from '../support/core';
import { workspace } from '../support/core';

// A real queue file, made busy by a second connection holding its write lock.
let ws: TestWorkspace;
let store: Store;
beforeEach(() => {
  ws = workspace('evidence-lease-keeper-');
  store = openStore(join(ws.dir, 'queue.sqlite'), { busyTimeoutMs: 50 });
});
afterEach(() => {
  store.close();
  ws.cleanup();
});

describe('keeping the lease when the queue is busy', () => {
  it('does not throw when a renewal cannot be written, and counts the lease held while it is still fresh', () => {
    let now = 1_000_000;
    const keeper = new LeaseKeeper(store.lease, { ttlMs: 1000, renewMs: 100 }, () => now);
    expect(keeper.hold()).toBe('acquired');

    const other = new Database(join(ws.dir, 'queue.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    try {
      now += 200;
      expect(() => keeper.hold()).toThrow(/locked|busy/i);
      expect(keeper.tryHold()).toBe('held');
      // Past its lifetime with no renewal written, nobody can vouch for it any more.
      now += 1000;
      expect(keeper.tryHold()).toBe('refused');
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(keeper.tryHold()).toBe('acquired');
  });
});
