import { ChangeFeed } from './change-feed';
import type { QueueDb } from './database';
import { openQueueDb } from './database';
import { CertificationQueue } from './queue';
import { SettingsStore } from './settings';
import { SyncLeaseStore } from './sync-lease';
import { TimestampBatches } from './timestamp-batches';
import { WatchedFolderStore } from './watched-folders';

export type { ChangeFeed, ChangeListener } from './change-feed';
export type { CertificationQueue, CertificationRow, ListQuery, NewCertification } from './queue';
export type { AnchoredFacts } from './queue-reader';
export type { SettingsStore } from './settings';
export type { LeaseHolder, SyncLeaseStore } from './sync-lease';
export type { ConfirmedTimestamp, TimestampBatch, TimestampBatches } from './timestamp-batches';
export type { ArrivedFile, Look, WatchedFolderStore } from './watched-folders';
export { ReportLines } from './report-lines';

/** Everything kept in `queue.sqlite`, over one connection, with one change feed. */
export interface Store {
  queue: CertificationQueue;
  settings: SettingsStore;
  lease: SyncLeaseStore;
  timestamps: TimestampBatches;
  watched: WatchedFolderStore;
  changes: ChangeFeed;
  close(): void;
}

export function openStore(path: string, options?: Parameters<typeof openQueueDb>[1]): Store {
  return storeOn(openQueueDb(path, options));
}

function storeOn(db: QueueDb): Store {
  // The feed announces the active profile's counts; it asks for them only when it flushes.
  const changes: ChangeFeed = new ChangeFeed(db, () => {
    const profileId: string = settings.activeProfile();
    return { profileId, counts: queue.counts(profileId) };
  });
  const settings: SettingsStore = new SettingsStore(db, changes);
  const queue: CertificationQueue = new CertificationQueue(db, changes);
  return {
    queue,
    settings,
    lease: new SyncLeaseStore(db),
    timestamps: new TimestampBatches(db, changes),
    watched: new WatchedFolderStore(db, queue),
    changes,
    close: () => {
      changes.close();
      if (db.open) db.close();
    },
  };
}
export { EntriesBuilder } from './reference-entries';
export type { NamesRead } from './reference-entries';
export { ScratchStack } from './scratch-stack';
export { SET_KEPT_IN_MEMORY } from './scratch';
