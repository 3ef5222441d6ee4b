import { ChangeFeed } from './change-feed';
import type { QueueDb } from './database';
import { closeQueueDb, openQueueDb } from './database';
import { CertificationTable } from './queue';
import { SettingsStore } from './settings';
import { SyncLeaseStore } from './sync-lease';
import { TimestampBatches } from './timestamp-batches';
import { CertificateStatusStore } from './certificate-status';
import { KitSeals } from './kit-seals';
import { RecordRenewals } from './record-renewals';
import { HashTreeRenewals } from './hash-tree-renewals';
import { RecordChains } from './record-chains';
import { ReceiptRecords } from './receipt-records';
import { WatchedFolderStore } from './watched-folders';
import { NameIndex } from './name-index';

export type { ChangeFeed, ChangeListener } from './change-feed';
export type {
  CertificationRow,
  ContentReads,
  ListQuery,
  NewCertification,
  QueueArrivals,
  QueueCorrections,
  QueueIntake,
  QueueReads,
  QueueSending,
} from './queue';
export type { CertificationTable };
export type { AnchoredFacts } from './content-reads';
export type { SettingsStore } from './settings';
export type { NameIndex } from './name-index';
export type { LeaseHolder, SyncLeaseStore } from './sync-lease';
export type {
  ConfirmedTimestamp,
  KeptValidation,
  TimestampBatch,
  TimestampBatches,
  UnvalidatedBatch,
} from './timestamp-batches';
export type { CertificateStatusStore, KeptStatus } from './certificate-status';
export type { KitSeal, KitSeals } from './kit-seals';
export type { DueRecord, RecordRenewals } from './record-renewals';
export type { RecordChains, RenewalStamp } from './record-chains';
export type { ArrivedFile, Look, WatchedFolderStore } from './watched-folders';
export { ReportLines } from './report-lines';

/** Everything kept in `queue.sqlite`, over one connection, with one change feed. */
export interface Store {
  /** The certifications, by role (reads, intake, sending, corrections). */
  certifications: CertificationTable;
  settings: SettingsStore;
  lease: SyncLeaseStore;
  timestamps: TimestampBatches;
  /** Evidence records' renewals: which are due, and each record's archive timestamps after its first. */
  renewals: RecordRenewals;
  recordChains: RecordChains;
  hashTrees: HashTreeRenewals;
  receiptRecords: ReceiptRecords;
  /** Issuers' OCSP responses and CRLs, per certificate, while they hold. */
  certificateStatus: CertificateStatusStore;
  /** Kits saved while their authority could not seal them, until their seal is added. */
  kitSeals: KitSeals;
  watched: WatchedFolderStore;
  /** The names' search index, caught up after rows are queued. */
  names: NameIndex;
  changes: ChangeFeed;
  /**
   * Several writes as one commit, each still whole on its own (a savepoint): a reader sees all of
   * them or none. What writes a million rows at once (the benchmarks' set-up) commits a page at a time.
   */
  inOneCommit<T>(work: () => T): T;
  close(): void;
}

export function openStore(path: string, options?: Parameters<typeof openQueueDb>[1]): Store {
  return storeOn(openQueueDb(path, options));
}

function storeOn(db: QueueDb): Store {
  // The feed announces the active profile's counts; it asks for them only when it flushes.
  const changes: ChangeFeed = new ChangeFeed(db, () => {
    const profileId: string = settings.activeProfile();
    return { profileId, counts: certifications.reads.counts(profileId) };
  });
  const settings: SettingsStore = new SettingsStore(db, changes);
  const certifications = new CertificationTable(db, changes);
  const recordChains = new RecordChains(db);
  const renewals = new RecordRenewals(db, recordChains);
  return {
    certifications,
    settings,
    lease: new SyncLeaseStore(db),
    timestamps: new TimestampBatches(db, changes),
    renewals,
    recordChains,
    hashTrees: new HashTreeRenewals(db, recordChains),
    receiptRecords: new ReceiptRecords(db, recordChains),
    certificateStatus: new CertificateStatusStore(db),
    kitSeals: new KitSeals(db),
    watched: new WatchedFolderStore(db, certifications.intake),
    names: new NameIndex(db),
    changes,
    inOneCommit: (work) => db.transaction(work).immediate(),
    close: () => {
      changes.close();
      closeQueueDb(db);
    },
  };
}
export { EntriesBuilder } from './reference-entries';
export type { NamesRead } from './reference-entries';
export { ScratchStack } from './scratch-stack';
export { ScratchSet } from './scratch-set';
export { SET_KEPT_IN_MEMORY } from './scratch';
