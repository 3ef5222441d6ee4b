import type { ItPolicy } from './desktop-policy/it-policy';
import { itPolicyOf, readItPolicy } from './desktop-policy/it-policy';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { ServiceProfile } from '../protocol/profiles';
import type { Fetch } from './service/network';
import type {
  ConnectivityStatus,
  CoreStatus,
  IntakeProgress,
  KitProgress,
  QueueChanges,
  Sender,
} from '../protocol/views';
import type { Identity } from './config/identity';
import { currentIdentity } from './config/identity';
import { ProfileConnections } from './config/profile-connections';
import type { EmbeddedServiceStarter } from './config/embedded-service';
import { checkEvidence } from './evidence/evidence-checker';
import { LogTrust } from './evidence/log-trust';
import { HashPool } from './hashing/hash-pool';
import type { IntakeReport } from './intake/certify-paths';
import { certifyPaths } from './intake/certify-paths';
import type { Logger } from './logging/logger';
import { fileLogger } from './logging/logger';
import type { SecretStore } from './secrets/secret-store';
import type { Pacing } from './service/retry-policy';
import type { Store } from './store';
import { openStore } from './store';
import type { LeaseTiming } from './sync/lease-keeper';
import { SyncControl } from './sync/sync-control';
import { QueueView } from './queue/queue-view';
import { ProfileService } from './profiles/profile-service';
import { EvidenceExports } from './evidence/evidence-exports';
import { keepReceiptsBesideFiles } from './evidence/receipts-beside';
import { Verification } from './evidence/verification';
import { SetVerification } from './sets/set-verification';
import { Preferences } from './preferences/preferences';
import type { TimestampPacing } from './timestamps/timestamp-engine';
import { DEFAULT_TIMESTAMP_PACING, TimestampEngine } from './timestamps/timestamp-engine';
import type { Batch } from '../protocol/certification-request';
import type { SetProgress } from '../protocol/sets';
import type { WatchTiming } from './watch/watch-timing';
import { WatchedFolders } from './watch/watched-folders';

export interface CoreOptions {
  /** Where the queue database (and the embedded sandbox's) live. */
  dataDir: string;
  secrets: SecretStore;
  /**
   * How to start the embedded service (the shells pass the sandbox; tests shorten its intervals).
   * Without it the embedded profile cannot be used, and says so.
   */
  startEmbedded?: EmbeddedServiceStarter;
  concurrency?: number;
  hashWorkers?: number;
  /** How patient syncing is (main/service/retry-policy.ts); tests shorten it. */
  pacing?: Pacing;
  /** The jitter source for backoffs (Math.random); tests pin it to make a delay certain. */
  random?: () => number;
  /** How long the right to send lasts and how often it is renewed; tests shorten it. */
  leaseTiming?: LeaseTiming;
  /** Where structured logs go; by default `logs/evidence-desk.log` in the data folder. */
  log?: Logger;
  /** Start syncing at once (default). The CLI's read-only commands do not. */
  sync?: boolean;
  /** The app (default) or the command line: whoever waits for the other says who is sending. */
  sender?: Sender;
  /**
   * How a service profile's requests leave the machine: Electron's net.fetch in the app, a
   * proxy-aware fetch with the profile's CA in the CLI. Node's own fetch when not given.
   */
  networkFor?: (profile: ServiceProfile) => Fetch | undefined;
  /** How patient independent timestamping is; tests shorten it. */
  timestampPacing?: TimestampPacing;
  /** Watch the watched folders while open (the app, `evidence-desk watch`); other commands do not. */
  watch?: boolean;
  /** How often watched folders and their waiting files are looked at; tests shorten it. */
  watchTiming?: Partial<WatchTiming>;
  /** IT's policy on log keys; read from the environment and the OS's policy store unless given. */
  itPolicy?: ItPolicy;
}

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

  private constructor(
    private readonly options: CoreOptions,
    private readonly store: Store,
  ) {
    super();
    this.pool = new HashPool(options.hashWorkers);
    this.log = options.log ?? fileLogger(join(options.dataDir, 'logs', 'evidence-desk.log'));
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
    this.timestamps = new TimestampEngine({
      batches: store.timestamps,
      authorityFor: (id) => this.connections.authorityFor(id),
      fetchFor: (id) => this.connections.fetchFor(id),
      activeProfile: () => this.activeProfileId,
      log: this.log,
      pacing: options.timestampPacing,
    });
    const activeProfileId = () => this.activeProfileId;
    this.exports = new EvidenceExports({
      store,
      profiles: this.connections,
      log: this.log,
      activeProfileId,
      timestampTimeoutMs: (options.timestampPacing ?? DEFAULT_TIMESTAMP_PACING).timeoutMs,
    });
    this.verification = new Verification({ store, pool: this.pool, logKeys: this.logKeys, activeProfileId });
    this.sets = new SetVerification({
      store,
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
    this.queue = new QueueView({
      store,
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
      onQueued: () => this.afterQueued(),
      timing: options.watchTiming,
    });
    this.profiles = new ProfileService({
      connections: this.connections,
      sync: this.sync,
      logKeys: this.logKeys,
      queue: this.queue,
      store,
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
  async certify(
    paths: readonly string[],
    batch: Batch,
    { again = false }: { again?: boolean } = {},
  ): Promise<IntakeReport> {
    const report = await certifyPaths(paths, batch, {
      again,
      queue: this.store.queue,
      pool: this.pool,
      profileId: this.activeProfileId,
      identity: this.identity(),
      onQueued: () => this.sync.wake(),
      onProgress: (progress) => this.emit('progress', progress),
    });
    if (report.queued.length) await this.afterQueued();
    this.log.log('info', 'intake.finished', {
      queued: report.queued.length,
      problems: report.problems.map((problem) => problem.code),
      alreadyCertified: report.alreadyCertified.length,
    });
    return report;
  }

  /** Rows were queued: they are gathered under one timestamp request (sending was woken as they were written). */
  private async afterQueued(): Promise<void> {
    this.sync.wake();
    await this.timestamps.sealBatch(this.activeProfileId).catch((error: unknown) =>
      // The batch's rows are gathered again later; certifying never fails for the sake of a timestamp.
      this.log.log('warn', 'timestamp.seal_failed', { error: (error as Error).message }),
    );
  }

  status(): CoreStatus {
    return {
      profile: this.connections.summary(),
      counts: this.store.queue.counts(this.activeProfileId),
      connectivity: this.connectivity,
      logKeyChange: this.profiles.pendingLogKeyChange(),
    };
  }

  get connectivity(): ConnectivityStatus {
    return this.sync.connectivity;
  }

  async close(): Promise<void> {
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
