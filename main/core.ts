import type { ItPolicy } from './desktop-policy/it-policy';
import { itPolicyOf, readItPolicy } from './desktop-policy/it-policy';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type {
  ConnectivityStatus,
  CoreStatus,
  IntakeProgress,
  KitProgress,
  QueueChanges,
} from '../protocol/views';
import type { Identity } from './config/identity';
import { currentIdentity } from './config/identity';
import { ProfileConnections } from './config/profile-connections';
import { checkEvidence } from './evidence/evidence-checker';
import { LogTrust } from './evidence/log-trust';
import { HashPool } from './hashing/hash-pool';
import type { IntakeReport } from './intake/certify-paths';
import { IntakeService } from './intake/intake';
import { keepNamesIndexed } from './queue/name-indexing';
import type { CoreOptions } from './core-options';

export type { CoreOptions };
import type { Logger } from './logging/logger';
import { fileLogger } from './logging/logger';
import type { Store } from './store';
import { openStore } from './store';
import { SETTING } from './store/setting-keys';
import { SyncControl } from './sync/sync-control';
import { QueueView } from './queue/queue-view';
import { ProfileService } from './profiles/profile-service';
import { EvidenceExports } from './evidence/evidence-exports';
import { keepReceiptsBesideFiles } from './evidence/receipts-beside';
import { Verification, trustIn } from './evidence/verification';
import { SetVerification } from './sets/set-verification';
import { Preferences } from './preferences/preferences';
import { DEFAULT_TIMESTAMP_PACING, TimestampEngine } from './timestamps/timestamp-engine';
import { AuthorityPace } from './timestamps/authority-pace';
import type { LookOptions, RenewalLook } from './timestamps/record-renewal';
import { RecordRenewal } from './timestamps/record-renewal';
import type { RenewalState } from './store/record-renewals';
import type { Batch } from '../protocol/certification-request';
import type { SetProgress } from '../protocol/sets';
import { WatchedFolders } from './watch/watched-folders';

export interface CoreEvents {
  connectivity: [status: ConnectivityStatus];
  progress: [progress: IntakeProgress];
  setProgress: [progress: SetProgress];
  kitProgress: [progress: KitProgress];
}

/**
 * The composition root: everything Evidence Desk does except its window, built from one
 * config. It builds the services (sync, exports, verification, preferences) and hands them to the
 * shells, which call them directly; the queue view and profiles still go through it.
 */
export class EvidenceCore extends EventEmitter<CoreEvents> {
  private readonly pool: HashPool;
  private readonly connections: ProfileConnections;
  private readonly logKeys: LogTrust;
  /** Who decides which log keys are trusted here (IT's policy). */
  private itPolicy: ItPolicy;
  private readonly log: Logger;
  /** Sending the queue: connection, engine, pause and resume, and the waits. */
  readonly sync: SyncControl;
  /** The active profile's certifications as the screens and the CLI see them. */
  readonly queue: QueueView;
  /** Saved profiles, the active one, connection tests, a service's new log key. */
  readonly profiles: ProfileService;
  private stopReceiptsBeside: (() => void) | undefined;
  private readonly timestamps: TimestampEngine;
  /** Evidence records renewing themselves (RFC 4998): what is due, and renewal now. */
  readonly records: RecordRenewal;
  /** Receipts, kits and registers leaving the machine. */
  readonly exports: EvidenceExports;
  /** Checking documents against receipts, certificates or this computer's certifications. */
  readonly verification: Verification;
  /** Checking a whole production against a kit, a register, a load file or this computer. */
  readonly sets: SetVerification;
  /** The person's choices: language, receipts beside files. */
  readonly preferences: Preferences;
  /** Folders whose new files are certified unattended. */
  readonly watched: WatchedFolders;
  private readonly intake: IntakeService;
  private readonly namesIndexing: ReturnType<typeof keepNamesIndexed>;

  private constructor(
    private readonly options: CoreOptions,
    private readonly store: Store,
  ) {
    super();
    this.pool = new HashPool(options.hashWorkers);
    this.log = options.log ?? fileLogger(join(options.dataDir, 'logs', 'evidence-desk.log'));
    this.namesIndexing = keepNamesIndexed(store.names, this.log);
    this.connections = new ProfileConnections(
      store.settings,
      options.secrets,
      { dataDir: options.dataDir, start: options.startEmbedded },
      options.networkFor,
    );
    this.itPolicy = options.itPolicy ?? itPolicyOf(process.env);
    this.logKeys = new LogTrust({
      settings: store.settings,
      active: () => this.profiles.trustedService(),
      log: this.log,
      trustedByPolicy: () => this.itPolicy.trusted,
    });
    // One pace per authority for everything this process asks of it: batch tokens and export seals.
    const pace = new AuthorityPace(Date.now, {
      read: (url) => Number(store.settings.get(SETTING.authorityNextAt(url)) ?? 0),
      write: (url, at) => store.settings.set(SETTING.authorityNextAt(url), String(at)),
    });
    this.records = new RecordRenewal({
      renewals: store.renewals,
      hashTrees: store.hashTrees,
      receiptRecords: store.receiptRecords,
      // The receipt as a kit writes it: what a record of a certification made before records covers.
      receiptTextOf: (id) => this.exports.receiptText(id),
      settings: store.settings,
      authorityFor: (id) => this.connections.authorityFor(id),
      log: this.log,
      now: options.clock ?? Date.now,
      policy: options.renewal,
      itPolicy: () => this.itPolicy,
    });
    this.timestamps = new TimestampEngine({
      pace,
      renewal: this.records,
      batches: store.timestamps,
      statuses: store.certificateStatus,
      authorityFor: (id) => this.connections.authorityFor(id),
      fetchFor: (id) => this.connections.fetchFor(id),
      activeProfile: () => this.activeProfileId,
      log: this.log,
      pacing: options.timestampPacing,
      kitSeals: {
        store: store.kitSeals,
        // Zips and files are loaded when a waiting seal comes, not when a command starts.
        complete: async (seal, timestamper) =>
          seal.certificationId !== null && seal.file !== null
            ? this.exports.completeCertificateSeal(
                { certificationId: seal.certificationId, file: seal.file },
                timestamper,
              )
            : (await import('./evidence/kit-seal-completion')).completeKitSeal(seal, timestamper),
      },
    });
    const activeProfileId = () => this.activeProfileId;
    this.exports = new EvidenceExports({
      reads: store.certifications.reads,
      settings: store.settings,
      timestamps: store.timestamps,
      recordChains: store.recordChains,
      receiptRecords: store.receiptRecords,
      watched: store.watched,
      profiles: this.connections,
      log: this.log,
      activeProfileId,
      timestampTimeoutMs: (options.timestampPacing ?? DEFAULT_TIMESTAMP_PACING).timeoutMs,
      pace,
      statuses: store.certificateStatus,
      kitSeals: store.kitSeals,
      sealRetryMs: (options.timestampPacing ?? DEFAULT_TIMESTAMP_PACING).firstRetryMs,
      sealWaits: () => this.timestamps.wake(),
    });
    const trust = () => trustIn(store);
    this.verification = new Verification({
      byContent: store.certifications.byContent,
      trust,
      pool: this.pool,
      logKeys: this.logKeys,
      activeProfileId,
    });
    this.sets = new SetVerification({
      reads: store.certifications.reads,
      byContent: store.certifications.byContent,
      trust,
      pool: this.pool,
      activeProfileId,
      isDemo: (profileId) => this.connections.summary(profileId).demo,
      documentTimestamper: () => this.exports.documentTimestamper(),
    });
    this.preferences = new Preferences(store.settings, () => this.itPolicy);
    this.sync = new SyncControl({
      store,
      profiles: this.connections,
      timestamps: this.timestamps,
      log: this.log,
      events: this,
      checkEvidence: (row, evidence) => checkEvidence(row, evidence, this.logKeys),
      logTrust: this.logKeys,
      sync: options.sync,
      sender: options.sender,
      pacing: options.pacing,
      random: options.random,
      leaseTiming: options.leaseTiming,
      concurrency: options.concurrency,
    });
    this.intake = new IntakeService({
      queue: store.certifications.intake,
      pool: this.pool,
      log: this.log,
      activeProfileId,
      identity: () => this.identity(),
      wake: () => {
        this.sync.wake();
        this.namesIndexing.soon();
      },
      sealBatch: (profileId) => this.timestamps.sealBatch(profileId),
      onProgress: (progress) => this.emit('progress', progress),
    });
    this.queue = new QueueView({
      reads: store.certifications.reads,
      corrections: store.certifications.corrections,
      activeProfileId,
      environmentOf: (profileId) => this.exports.environmentOf(profileId),
      wake: () => this.sync.wake(),
    });
    this.watched = new WatchedFolders({
      store: store.watched,
      pool: this.pool,
      log: this.log,
      activeProfileId,
      identity: () => this.identity(),
      onQueued: () => this.intake.afterQueued(),
      timing: options.watchTiming,
      subscribe: options.watchEvents,
    });
    this.profiles = new ProfileService({
      connections: this.connections,
      sync: this.sync,
      logKeys: this.logKeys,
      queue: this.queue,
      corrections: store.certifications.corrections,
      itPolicy: () => this.itPolicy,
    });
  }

  static async open(options: CoreOptions): Promise<EvidenceCore> {
    const core = new EvidenceCore(options, openStore(join(options.dataDir, 'queue.sqlite')));
    // What IT set in the OS's policy store (the environment was read already).
    if (!options.itPolicy) core.itPolicy = await readItPolicy(process.platform, process.env);
    core.stopReceiptsBeside = keepReceiptsBesideFiles(core.store, core.preferences, core.exports, core.log);
    try {
      await core.sync.connect();
      if (options.watch) await core.watched.start();
      // A running app catches up on names queued while it was closed (by the command line).
      if (options.sync !== false) core.namesIndexing.soon();
      core.log.log('info', 'core.opened', { profile: core.activeProfileId, sync: options.sync !== false });
    } catch (error) {
      await core.close();
      throw error;
    }
    return core;
  }

  /** Who certifies: the computer's login, and the person's name and firm as written in Settings. */
  private identity(): Identity {
    const { name, firm } = this.preferences.certifier;
    return { ...currentIdentity(), name, firm };
  }

  get activeProfileId(): string {
    return this.connections.activeId;
  }

  /** The one change stream: every write to the queue, by this process or another, once per tick. */
  onChanges(listener: (changes: QueueChanges) => void): () => void {
    return this.store.changes.subscribe(listener);
  }

  /** Hashes and queues; content already certified here is reported instead, unless `again`. */
  certify(paths: readonly string[], batch: Batch, options: { again?: boolean } = {}): Promise<IntakeReport> {
    return this.intake.certify(paths, batch, options);
  }

  /** Renews now every evidence record due (one request per authority), waiting briefly for its answer (`renew`). */
  async renewRecords(options: LookOptions = {}): Promise<RenewalLook & { renewals: RenewalState[] }> {
    const look = (await this.records.look(true, options)) as RenewalLook;
    this.timestamps.wake();
    await this.timestamps.answered();
    return { ...look, renewals: this.store.renewals.states(look.opened) };
  }

  status(): CoreStatus {
    return {
      profile: this.connections.summary(),
      counts: this.store.certifications.reads.counts(this.activeProfileId),
      connectivity: this.connectivity,
      logKeyChange: this.profiles.pendingLogKeyChange(),
      records: this.records.status(),
    };
  }

  get connectivity(): ConnectivityStatus {
    return this.sync.connectivity;
  }

  async close(): Promise<void> {
    this.namesIndexing.stop();
    await this.watched.stop();
    this.stopReceiptsBeside?.();
    await this.disconnect();
    await this.pool.close();
    this.store.close();
  }

  private async disconnect(): Promise<void> {
    await this.sync.disconnect();
    await this.connections.close();
  }
}
