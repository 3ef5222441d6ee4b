import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { ProfileSecrets, SecretsSet, ServiceProfile } from '../protocol/profiles';
import type { Fetch } from './service/network';
import { EMBEDDED_PROFILE_ID } from '../protocol/profiles';
import type {
  ConnectivityStatus,
  CoreStatus,
  IntakeProgress,
  LogKeyChangeView,
  QueueChanges,
  Sender,
} from '../protocol/views';
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
import type { CallResult } from './service/service-client';
import type { Store } from './store';
import { openStore } from './store';
import type { LeaseTiming } from './sync/lease-keeper';
import { SyncControl } from './sync/sync-control';
import { QueueView } from './queue/queue-view';
import { EvidenceExports } from './evidence/evidence-exports';
import { keepReceiptsBesideFiles } from './evidence/receipts-beside';
import { Verification } from './evidence/verification';
import { Preferences } from './preferences/preferences';
import type { TimestampPacing } from './timestamps/timestamp-engine';
import { DEFAULT_TIMESTAMP_PACING, TimestampEngine } from './timestamps/timestamp-engine';

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
}

export interface CoreEvents {
  connectivity: [status: ConnectivityStatus];
  progress: [progress: IntakeProgress];
}

/**
 * The composition root: everything Evidence Desk does except its window, built from one
 * config. It builds the services (sync, exports, verification, preferences) and hands them to the
 * shells, which call them directly; the queue view and profiles still go through it.
 */
export class EvidenceCore extends EventEmitter<CoreEvents> {
  private readonly pool: HashPool;
  private readonly profiles: ProfileConnections;
  private readonly logKeys: LogTrust;
  private readonly log: Logger;
  /** Sending the queue: connection, engine, pause and resume, and the waits. */
  readonly sync: SyncControl;
  /** The active profile's certifications as the screens and the CLI see them. */
  readonly queue: QueueView;
  private stopReceiptsBeside: (() => void) | undefined;
  private readonly timestamps: TimestampEngine;
  /** Receipts, kits and registers leaving the machine. */
  readonly exports: EvidenceExports;
  /** Checking documents against receipts, certificates or this computer's certifications. */
  readonly verification: Verification;
  /** The person's choices: language, receipts beside files. */
  readonly preferences: Preferences;

  private constructor(
    private readonly options: CoreOptions,
    private readonly store: Store,
  ) {
    super();
    this.pool = new HashPool(options.hashWorkers);
    this.log = options.log ?? fileLogger(join(options.dataDir, 'logs', 'evidence-desk.log'));
    this.profiles = new ProfileConnections(
      store.settings,
      options.secrets,
      { dataDir: options.dataDir, start: options.startEmbedded },
      options.networkFor,
    );
    this.logKeys = new LogTrust({
      settings: store.settings,
      active: () => this.trustedService(),
      fetchKey: async () => this.sync.client?.fetchLogKey(),
      fetchConsistency: async (first, second) => this.sync.client?.fetchConsistency(first, second),
      log: this.log,
    });
    this.timestamps = new TimestampEngine({
      batches: store.timestamps,
      authorityFor: (id) => this.profiles.authorityFor(id),
      fetchFor: (id) => this.profiles.fetchFor(id),
      activeProfile: () => this.activeProfileId,
      log: this.log,
      pacing: options.timestampPacing,
    });
    const activeProfileId = () => this.activeProfileId;
    this.exports = new EvidenceExports({
      store,
      profiles: this.profiles,
      log: this.log,
      activeProfileId,
      timestampTimeoutMs: (options.timestampPacing ?? DEFAULT_TIMESTAMP_PACING).timeoutMs,
    });
    this.verification = new Verification({ store, pool: this.pool, logKeys: this.logKeys, activeProfileId });
    this.preferences = new Preferences(store.settings);
    this.sync = new SyncControl({
      store,
      profiles: this.profiles,
      timestamps: this.timestamps,
      log: this.log,
      events: this,
      checkEvidence: (row, evidence) => checkEvidence(row, evidence, this.logKeys),
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
  }

  static async open(options: CoreOptions): Promise<EvidenceCore> {
    const core = new EvidenceCore(options, openStore(join(options.dataDir, 'queue.sqlite')));
    core.stopReceiptsBeside = keepReceiptsBesideFiles(core.store, core.preferences, core.exports, core.log);
    try {
      await core.sync.connect();
      core.log.log('info', 'core.opened', { profile: core.activeProfileId, sync: options.sync !== false });
    } catch (error) {
      await core.close();
      throw error;
    }
    return core;
  }

  get activeProfileId(): string {
    return this.profiles.activeId;
  }

  /** The one change stream: every write to the queue, by this process or another, once per tick. */
  onChanges(listener: (changes: QueueChanges) => void): () => void {
    return this.store.changes.subscribe(listener);
  }

  /** Hashes and queues; content already certified here is reported instead, unless `again`. */
  async certify(
    paths: readonly string[],
    metadata: unknown,
    { again = false }: { again?: boolean } = {},
  ): Promise<IntakeReport> {
    const report = await certifyPaths(paths, metadata, {
      again,
      queue: this.store.queue,
      pool: this.pool,
      profileId: this.activeProfileId,
      identity: currentIdentity(),
      onQueued: () => this.sync.wake(),
      onProgress: (progress) => this.emit('progress', progress),
    });
    if (report.queued.length)
      await this.timestamps.sealBatch(this.activeProfileId).catch((error: unknown) =>
        // The batch's rows are gathered again later; certifying never fails for the sake of a timestamp.
        this.log.log('warn', 'timestamp.seal_failed', { error: (error as Error).message }),
      );
    this.log.log('info', 'intake.finished', {
      queued: report.queued.length,
      problems: report.problems.map((problem) => problem.code),
      alreadyCertified: report.alreadyCertified.length,
    });
    return report;
  }

  status(): CoreStatus {
    return {
      profile: this.profiles.summary(),
      counts: this.store.queue.counts(this.activeProfileId),
      connectivity: this.connectivity,
      logKeyChange: this.pendingLogKeyChange(),
    };
  }

  get connectivity(): ConnectivityStatus {
    return this.sync.connectivity;
  }

  /** A change of the active service's log key that waits for the user to accept it, if any. */
  pendingLogKeyChange(): LogKeyChangeView | null {
    const change = this.logKeys.keyChange(this.activeProfileId);
    return change
      ? {
          previousFingerprint: change.previousFingerprint,
          fingerprint: change.fingerprint,
          seenAt: change.seenAt,
        }
      : null;
  }

  /**
   * The user compared the new key's fingerprint with the service's and accepts it: evidence that
   * could not be checked is checked again with it. Returns how many were checked again.
   */
  async acceptLogKeyChange(): Promise<number> {
    if (!this.logKeys.acceptKeyChange(this.activeProfileId)) return 0;
    const unchecked = this.queue
      .list({ states: ['anchored'], limit: 1_000_000 })
      .filter((row) => row.verification !== 'verified');
    for (const row of unchecked) {
      const check = await checkEvidence(
        row,
        row.evidence === null ? null : JSON.parse(row.evidence),
        this.logKeys,
      );
      this.store.queue.recordVerification(row.id, {
        verification: check.verification,
        verificationMessage: check.message,
      });
    }
    return unchecked.length;
  }

  /** The active profile's service and the log key the user gave it, for the log trust. */
  private trustedService() {
    const profileId = this.activeProfileId;
    if (profileId === EMBEDDED_PROFILE_ID) return { profileId, service: 'embedded' };
    const profile = this.readProfile(profileId);
    return { profileId, service: profile?.baseUrl ?? 'unknown', configuredKey: profile?.logKey };
  }

  saveProfile(profile: ServiceProfile, secrets: ProfileSecrets): Promise<void> {
    return this.profiles.save(profile, secrets);
  }

  /**
   * A saved profile to show and edit; settings that no longer pass the rules read as absent (to be
   * entered again), and the connection status says why.
   */
  readProfile(id: string): ServiceProfile | undefined {
    return this.profiles.readUsable(id);
  }

  secretsSet(id: string): Promise<SecretsSet> {
    return this.profiles.secretsSet(id);
  }

  /** Switches where certifications go. Rows stay with the profile they were made for. */
  async useProfile(id: string): Promise<void> {
    await this.disconnect();
    try {
      this.profiles.activate(id);
    } finally {
      await this.sync.connect();
    }
  }

  testConnection(id = this.activeProfileId): Promise<CallResult<{ expiresInSeconds: number }>> {
    return this.profiles.testConnection(id);
  }

  /** Tests settings as typed in, before they are saved (blank secrets come from the keychain). */
  testUnsavedProfile(
    profile: ServiceProfile,
    secrets: ProfileSecrets,
  ): Promise<CallResult<{ expiresInSeconds: number }>> {
    return this.profiles.testUnsaved(profile, secrets);
  }

  async close(): Promise<void> {
    this.stopReceiptsBeside?.();
    await this.disconnect();
    await this.pool.close();
    this.store.close();
  }

  private async disconnect(): Promise<void> {
    await this.sync.disconnect();
    await this.profiles.close();
  }
}
