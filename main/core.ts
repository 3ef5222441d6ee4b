import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { SandboxOptions } from '../sandbox/server';
import type { ProfileSecrets, SecretsSet, ServiceProfile } from '../protocol/profiles';
import type { LanguageChoice } from '../protocol/locales/languages';
import { isLanguageChoice } from '../protocol/locales/languages';
import { logPosition } from '../verifier/sandbox-evidence';
import type { Fetch } from './service/network';
import { EMBEDDED_PROFILE_ID } from '../protocol/profiles';
import type { Receipt } from '../protocol/receipt';
import { isSettled, isUnsent } from '../protocol/states';
import type {
  CertificationDetails,
  CertificationRow,
  ConnectivityStatus,
  CoreStatus,
  DocumentVerification,
  EvidenceCheck,
  EvidenceSelection,
  ExportResult,
  FileVerification,
  IntakeProgress,
  LogKeyChangeView,
  MatterCount,
  QueueChanges,
  Sender,
} from '../protocol/views';
import { isSendingBlocked } from '../protocol/views';
import { currentIdentity } from './config/identity';
import { ProfileConnections } from './config/profile-connections';
import type { ErrorCode } from './errors';
import { DeskError, exportFailed, isDeskError } from './errors';
import { checkEvidence } from './evidence/evidence-checker';
import { LogTrust } from './evidence/log-trust';
import { writeCustodyRegister } from './evidence/custody-register';
import type { ReceiptContext } from './evidence/receipt';
import { buildReceipt } from './evidence/receipt';
import { checkAgainstProof } from './evidence/verify-document';
import { writeReceiptBesideFile } from './evidence/receipt-beside-file';
import type { KitTarget } from './evidence/kit';
import { describeSelection, writeKit } from './evidence/kit';
import { hashOneFile } from './hashing/hash-one-file';
import { HashPool } from './hashing/hash-pool';
import type { IntakeReport } from './intake/certify-paths';
import { certifyPaths } from './intake/certify-paths';
import type { Logger } from './logging/logger';
import { fileLogger } from './logging/logger';
import type { SecretStore } from './secrets/secret-store';
import type { Pacing } from './service/retry-policy';
import type { CallResult } from './service/service-client';
import { ServiceClient } from './service/service-client';
import type { ListQuery, Store } from './store';
import { openStore } from './store';
import type { LeaseTiming } from './sync/lease-keeper';
import { waitForRows } from './sync/row-waiter';
import { SyncEngine } from './sync/sync-engine';
import type { Trust } from '../verifier/verify-receipt';
import type { TimestampPacing } from './timestamps/timestamp-engine';
import { DEFAULT_TIMESTAMP_PACING, TimestampEngine } from './timestamps/timestamp-engine';
import { documentTimestamper } from './timestamps/document-timestamper';
import type { DocumentTimestamper } from './evidence/pdf/seal';

export interface CoreOptions {
  /** Where the queue database (and the embedded sandbox's) live. */
  dataDir: string;
  secrets: SecretStore;
  /** Settings for the embedded sandbox; tests shorten its anchoring interval. */
  embeddedSandbox?: SandboxOptions;
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

const DEFAULT_WAIT_MS = 10 * 60_000;
const RECEIPTS_BESIDE_FILES = 'receipts_beside_files';
const LANGUAGE = 'language';
const SETUP_PROBLEMS: ReadonlySet<ErrorCode> = new Set([
  'secret_missing',
  'keychain_unavailable',
  'unknown_profile',
  'invalid_profile',
]);
const NOT_STARTED: ConnectivityStatus = { state: 'unknown', message: null, nextProbeAt: null };
const PAUSED: ConnectivityStatus = {
  state: 'paused',
  message: 'Sending is paused; certifications wait here until it is resumed.',
  nextProbeAt: null,
};

/**
 * The composition root: everything Evidence Desk does except its window, built from one
 * config. The Electron shell, the CLI and the tests drive this and nothing below it.
 */
export class EvidenceCore extends EventEmitter<CoreEvents> {
  private readonly pool: HashPool;
  private readonly profiles: ProfileConnections;
  private readonly logKeys: LogTrust;
  private readonly log: Logger;
  private engine: SyncEngine | undefined;
  private client: ServiceClient | undefined;
  // Why the active profile cannot be used, when it cannot: the core still opens, shows and queues.
  private setupProblem: ConnectivityStatus | undefined;
  private paused = false;
  private stopReceiptsBeside: (() => void) | undefined;
  private readonly timestamps: TimestampEngine;

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
      { dataDir: options.dataDir, options: options.embeddedSandbox },
      options.networkFor,
    );
    this.logKeys = new LogTrust({
      settings: store.settings,
      active: () => this.trustedService(),
      fetchKey: async () => this.client?.fetchLogKey(),
      fetchConsistency: async (first, second) => this.client?.fetchConsistency(first, second),
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
  }

  static async open(options: CoreOptions): Promise<EvidenceCore> {
    const core = new EvidenceCore(options, openStore(join(options.dataDir, 'queue.sqlite')));
    core.stopReceiptsBeside = core.onChanges((changes) => core.writeReceiptsBeside(changes));
    try {
      await core.connect();
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
      onQueued: () => this.engine?.wake(),
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
    if (this.paused) return PAUSED;
    return this.setupProblem ?? this.engine?.status ?? NOT_STARTED;
  }

  list(query: Omit<ListQuery, 'profileId'>): CertificationRow[] {
    return this.store.queue.list({ ...query, profileId: this.activeProfileId });
  }

  count(query: Omit<ListQuery, 'profileId' | 'limit' | 'offset'>): number {
    return this.store.queue.count({ ...query, profileId: this.activeProfileId });
  }

  details(id: number): CertificationDetails {
    const row = this.store.queue.get(id);
    if (!row) throw new DeskError('not_found', `There is no certification ${id}.`);
    const position = row.evidence === null ? null : logPosition(JSON.parse(row.evidence));
    return {
      row,
      history: this.store.queue.history(id),
      environment: this.environmentOf(row.profileId),
      logPosition: position && { entry: position.leafIndex + 1, of: position.treeSize },
    };
  }

  /** The rows with these ids, in that order (those removed meanwhile are left out). */
  rows(ids: readonly number[]): CertificationRow[] {
    return this.store.queue.getMany(ids);
  }

  /** Sends a failed certification again; the audit trail says who asked. */
  retry(id: number): void {
    this.store.queue.retry(id, currentIdentity());
    this.engine?.wake();
  }

  /** Removes a certification never sent (or failed for good); the audit trail keeps what it was. */
  remove(id: number): void {
    this.store.queue.remove(id, currentIdentity());
  }

  /** The matters used most recently in this profile, for the batch form. */
  recentMatters(): string[] {
    return this.store.queue.recentMatters(this.activeProfileId);
  }

  matterCounts(): MatterCount[] {
    return this.store.queue.matterCounts(this.activeProfileId);
  }

  /** Starts sending, for a core opened with `sync: false`. */
  startSync(): void {
    this.options.sync = true;
    this.engine?.start();
    if (this.engine) this.timestamps.start();
  }

  /**
   * Stops sending until resumed (the tray's "Pause sending"): nothing is sent or checked, the
   * lease goes to whoever else wants it, and certifying still queues.
   */
  async pauseSync(): Promise<void> {
    if (this.paused) return;
    this.paused = true;
    await this.timestamps.stop();
    await this.engine?.stop();
    this.emit('connectivity', PAUSED);
  }

  resumeSync(): void {
    if (!this.paused) return;
    this.paused = false;
    if (this.options.sync !== false && this.engine) {
      this.engine.start();
      this.timestamps.start();
    }
    this.emit('connectivity', this.connectivity);
  }

  get syncPaused(): boolean {
    return this.paused;
  }

  tryNow(): void {
    this.engine?.tryNow();
  }

  /**
   * Resolves once each of these rows is anchored or failed for good, whoever sends them. Fails at
   * once, with the reason, when nothing can be sent (credentials refused, profile not set up).
   */
  async waitUntilSettled(ids: readonly number[], timeoutMs = DEFAULT_WAIT_MS): Promise<CertificationRow[]> {
    const outcome = await this.whileSendingPossible((signal) =>
      waitForRows({
        feed: this.store.changes,
        ids,
        isDone: isSettled,
        notDone: (open) => this.store.queue.stillWaiting(open),
        timeoutMs,
        signal,
      }),
    );
    if (outcome === 'timeout')
      throw new DeskError(
        'timeout',
        'The certifications did not settle in time; they stay queued and will go on syncing.',
      );
    if (outcome === 'stopped') throw this.blockedError();
    return this.rows(ids);
  }

  /** Why nothing can be sent now, as an error the shells show. */
  blockedError(): DeskError {
    return new DeskError(
      'sending_blocked',
      `Sending is blocked: ${this.connectivity.message ?? 'the service cannot be used with these settings.'} The certifications stay queued.`,
    );
  }

  /** Runs a wait that is cut short (its signal aborted) as soon as nothing can be sent. */
  private async whileSendingPossible<T>(wait: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const blocked = new AbortController();
    const onConnectivity = (status: ConnectivityStatus) => {
      if (isSendingBlocked(status.state)) blocked.abort();
    };
    onConnectivity(this.connectivity);
    this.on('connectivity', onConnectivity);
    try {
      return await wait(blocked.signal);
    } finally {
      this.off('connectivity', onConnectivity);
    }
  }

  /**
   * Gives the engine a moment to hand these rows to the service: resolves when none is still
   * unsent, when `timeoutMs` passes, or when the service turns out to be cut off.
   */
  async waitUntilSent(ids: readonly number[], timeoutMs = 10_000): Promise<CertificationRow[]> {
    const offline = new AbortController();
    const onConnectivity = (status: ConnectivityStatus) => {
      if (status.state === 'offline') offline.abort();
    };
    this.on('connectivity', onConnectivity);
    try {
      await this.whileSendingPossible((blocked) =>
        waitForRows({
          feed: this.store.changes,
          ids,
          isDone: (state) => !isUnsent(state),
          notDone: (open) =>
            this.store.queue
              .getMany(open)
              .filter((row) => isUnsent(row.state))
              .map((row) => row.id),
          timeoutMs,
          signal: AbortSignal.any([blocked, offline.signal]),
        }),
      );
    } finally {
      this.off('connectivity', onConnectivity);
    }
    return this.rows(ids);
  }

  /** A certification as a self-contained receipt (docs/evidence.md), for its own environment. */
  receipt(id: number): Receipt {
    return this.receiptFor(this.details(id).row);
  }

  private environmentOf(profileId: string): ReceiptContext['environment'] {
    return { ...this.profiles.summary(profileId), baseUrl: this.readProfile(profileId)?.baseUrl ?? null };
  }

  private receiptFor(row: CertificationRow): Receipt {
    return buildReceipt(row, {
      environment: this.environmentOf(row.profileId),
      logPublicKey: LogTrust.keyForEvidence(
        this.store.settings,
        row.profileId,
        row.evidence === null ? null : JSON.parse(row.evidence),
      ),
      timestamp: row.timestampState === 'confirmed' ? this.store.timestamps.confirmedFor(row.id) : null,
    });
  }

  /**
   * Writes the evidence kit (docs/evidence.md) for the chosen certifications of the active
   * profile: receipts, certificates, the register, verify.html, the log key and a README.
   */
  /** Seals for one export, by the active profile's timestamping authority; none when it names none. */
  private async documentTimestamper(): Promise<DocumentTimestamper | undefined> {
    const authority = await this.profiles.authorityFor(this.activeProfileId).catch(() => null);
    if (!authority) return undefined;
    const pacing = this.options.timestampPacing ?? DEFAULT_TIMESTAMP_PACING;
    return documentTimestamper(this.profiles.fetchFor(this.activeProfileId), authority, pacing.timeoutMs);
  }

  async exportEvidence(selection: EvidenceSelection, target: KitTarget): Promise<ExportResult> {
    const ids = this.selectedIds(selection);
    const written = await writeKit(
      {
        count: ids.length,
        selection: describeSelection(selection, ids.length),
        receipts: () => this.receiptsOf(ids),
      },
      {
        ...target,
        timestamper:
          target.receiptsOnly || target.seal === false ? undefined : await this.documentTimestamper(),
      },
    ).catch((error: unknown) => {
      throw exportFailed('The evidence kit', target.zip ?? target.dir ?? 'the chosen place', error);
    });
    this.log.log('info', 'evidence.exported', {
      certifications: written.certifications,
      zip: written.zip !== null,
    });
    return { certifications: written.certifications, dir: written.dir, zip: written.zip, file: null };
  }

  /**
   * Writes the chain-of-custody register (CSV for Excel) of the chosen certifications: each with
   * its matter, who, when, state, verification and whole timeline; then the removals, when the
   * selection is a matter or everything (chosen rows or a state have no removed rows).
   */
  async exportRegister(selection: EvidenceSelection, path: string): Promise<ExportResult> {
    const ids = this.selectedIds(selection);
    const byFilterOnly = !selection.ids && !selection.states?.length;
    const search = selection.search?.toLowerCase();
    const removals = byFilterOnly
      ? this.store.queue
          .auditTrail(this.activeProfileId, selection.matter)
          .filter((entry) => entry.action === 'removed')
          .filter(
            (entry) =>
              !search || entry.fileName.toLowerCase().includes(search) || entry.assetHash.startsWith(search),
          )
      : [];
    const environment = this.environmentOf(this.activeProfileId);
    const queue = this.store.queue;
    const rows = (chunk: readonly number[]) => this.rows(chunk);
    const certifications = await writeCustodyRegister(
      {
        *entries() {
          for (let i = 0; i < ids.length; i += 200)
            for (const row of rows(ids.slice(i, i + 200)))
              yield { row, history: queue.history(row.id), environment };
        },
        removals,
      },
      path,
    );
    this.log.log('info', 'register.exported', { certifications, removals: removals.length });
    return { certifications, dir: null, zip: null, file: path };
  }

  /** Receipts a few hundred rows at a time: a kit of 10,000 never holds them all. */
  private *receiptsOf(ids: readonly number[]): Generator<Receipt> {
    for (let i = 0; i < ids.length; i += 200)
      for (const row of this.rows(ids.slice(i, i + 200))) yield this.receiptFor(row);
  }

  /**
   * The ids a selection names, in register order (oldest batch first, each in path order): chosen
   * ids of the active profile, or all a filter matches.
   */
  private selectedIds(selection: EvidenceSelection): number[] {
    if (selection.ids)
      return this.rows(selection.ids)
        .filter((row) => row.profileId === this.activeProfileId)
        .sort(
          (a, b) =>
            (a.batchId ?? 0) - (b.batchId ?? 0) || a.filePath.localeCompare(b.filePath) || a.id - b.id,
        )
        .map((row) => row.id);
    const ids: number[] = [];
    const query = {
      states: selection.states,
      search: selection.search,
      matter: selection.matter,
      sort: { column: 'added', direction: 'asc' } as const,
    };
    for (let offset = 0; ; offset += 1000) {
      const page = this.list({ ...query, limit: 1000, offset });
      ids.push(...page.map((row) => row.id));
      if (page.length < 1000) break;
    }
    return ids;
  }

  /**
   * The log keys a data folder trusts (their fingerprints): every one a profile of it has trusted.
   * Reads the queue only if there is one — verifying a receipt needs no queue at all.
   */
  static trustedHere(dataDir: string): Trust {
    const path = join(dataDir, 'queue.sqlite');
    if (!existsSync(path)) return { logKeys: [], tsaRoots: [] };
    const store = openStore(path);
    try {
      return trustIn(store);
    } finally {
      store.close();
    }
  }

  /**
   * Verifies a document: against its receipt or certificate when one is given (the log keys this
   * computer trusts decide), else against this queue's certifications of it.
   */
  async verifyDocument(path: string, proofPath?: string): Promise<DocumentVerification> {
    if (proofPath === undefined) return { kind: 'register', ...(await this.verifyFile(path)) };
    const hashed = await hashOneFile(this.pool, path);
    const result = await checkAgainstProof(hashed.hash, proofPath, trustIn(this.store));
    return { kind: 'proof', path, assetHash: hashed.hash, ...result };
  }

  /** Hashes a file and re-checks, offline, the evidence of every certification of it. */
  async verifyFile(path: string): Promise<FileVerification> {
    const hashed = await hashOneFile(this.pool, path);
    const rows = this.store.queue.findByHash(this.activeProfileId, hashed.hash);
    const certifications = [];
    for (const row of rows) {
      const evidence = row.evidence === null ? null : (JSON.parse(row.evidence) as unknown);
      const check: EvidenceCheck =
        row.state === 'anchored'
          ? await checkEvidence(row, evidence, this.logKeys)
          : { verification: 'unverifiable', message: `Not anchored yet (${row.state}).` };
      certifications.push({ row, check });
    }
    const sameName = certifications.length
      ? []
      : this.store.queue
          .findSameNameOtherContent(this.activeProfileId, basename(path), hashed.hash)
          .map((row) => ({
            id: row.id,
            fileName: row.fileName,
            createdAt: row.createdAt,
            assetHash: row.assetHash,
          }));
    return { path, assetHash: hashed.hash, certifications, sameName };
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
    const unchecked = this.list({ states: ['anchored'], limit: 1_000_000 }).filter(
      (row) => row.verification !== 'verified',
    );
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
    try {
      return this.profiles.read(id);
    } catch (error) {
      if (isDeskError(error) && error.code === 'invalid_profile') return undefined;
      throw error;
    }
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
      await this.connect();
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

  /** The language of the app's screens: the computer's (default) or one chosen in Settings. */
  get language(): LanguageChoice {
    const saved = this.store.settings.get(LANGUAGE);
    return isLanguageChoice(saved) ? saved : 'system';
  }

  setLanguage(language: LanguageChoice): void {
    this.store.settings.set(LANGUAGE, language);
  }

  /** Whether a receipt is written beside each certified file once it is anchored (off unless chosen). */
  get receiptsBesideFiles(): boolean {
    return this.store.settings.get(RECEIPTS_BESIDE_FILES) === 'on';
  }

  setReceiptsBesideFiles(on: boolean): void {
    this.store.settings.set(RECEIPTS_BESIDE_FILES, on ? 'on' : 'off');
  }

  /** Anchored here (not by another process): its receipt goes beside the file, when that is chosen. */
  private writeReceiptsBeside(changes: QueueChanges): void {
    if (!this.receiptsBesideFiles) return;
    const anchored = changes.changed
      .filter((change) => change.state === 'anchored')
      .map((change) => change.id);
    for (const row of this.rows(anchored)) {
      try {
        const path = writeReceiptBesideFile(row.filePath, this.receiptFor(row));
        this.log.log('info', 'evidence.receipt_beside_file', { id: row.id, path });
      } catch (error) {
        // A read-only or vanished folder loses nothing: the receipt can be saved from the app at any time.
        this.log.log('warn', 'evidence.receipt_beside_file_failed', {
          id: row.id,
          error: (error as NodeJS.ErrnoException).code ?? (error as Error).message,
        });
      }
    }
  }

  async close(): Promise<void> {
    this.stopReceiptsBeside?.();
    await this.disconnect();
    await this.pool.close();
    this.store.close();
  }

  private async connect(): Promise<void> {
    this.setupProblem = undefined;
    let connection;
    try {
      connection = await this.profiles.connectionFor(this.activeProfileId);
    } catch (error) {
      if (!isDeskError(error) || !SETUP_PROBLEMS.has(error.code)) throw error;
      // The profile cannot be used as it is; everything else still works, and says how to fix it.
      this.setupProblem = { state: 'needs_setup', message: error.message, nextProbeAt: null };
      this.log.log('warn', 'sync.needs_setup', { profile: this.activeProfileId, code: error.code });
      this.emit('connectivity', this.setupProblem);
      return;
    }
    this.client = new ServiceClient(connection);
    const engine = new SyncEngine({
      log: this.log,
      pacing: this.options.pacing,
      random: this.options.random,
      leaseTiming: this.options.leaseTiming,
      sender: this.options.sender,
      queue: this.store.queue,
      lease: this.store.lease,
      profileId: this.activeProfileId,
      client: this.client,
      concurrency: this.options.concurrency,
      verifyEvidence: (row, evidence) => checkEvidence(row, evidence, this.logKeys),
    });
    engine.on('connectivity', (status) => {
      this.log.log(status.state === 'online' ? 'info' : 'warn', 'sync.connectivity', {
        state: status.state,
        message: status.message,
      });
      this.emit('connectivity', status);
    });
    this.engine = engine;
    if (this.options.sync !== false && !this.paused) {
      engine.start();
      this.timestamps.start();
    }
  }

  private async disconnect(): Promise<void> {
    await this.timestamps.stop();
    await this.engine?.stop();
    this.engine = undefined;
    this.client = undefined;
    await this.profiles.close();
  }
}

/** The log keys and timestamp roots a queue trusts: pinned keys, and the roots its kept tokens chain to. */
function trustIn(store: Store): Trust {
  return { logKeys: LogTrust.trustedFingerprints(store.settings), tsaRoots: store.timestamps.trustedRoots() };
}
