import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { Sandbox, SandboxOptions } from '../sandbox/server';
import { startSandbox } from '../sandbox/server';
import type { ServiceProfile } from './config/profiles';
import { EMBEDDED_PROFILE_ID, serviceProfileSchema } from './config/profiles';
import { DeskError } from './errors';
import type { Logger } from './logging/logger';
import { fileLogger } from './logging/logger';
import { checkEvidence } from './evidence/evidence-checker';
import { HashPool } from './hashing/hash-pool';
import type { IntakeProgress, IntakeReport } from './intake/certify-paths';
import { certifyPaths } from './intake/certify-paths';
import type { SecretName, SecretStore } from './secrets/secret-store';
import type { Pacing } from './service/retry-policy';
import type { CallResult, ServiceConnection } from './service/service-client';
import { ServiceClient } from './service/service-client';
import type { CertificationRow, HistoryEntry, ListQuery, StateCounts } from './store/certifications-store';
import { CertificationStore } from './store/certifications-store';
import { openQueueDb } from './store/database';
import type { ConnectivityStatus, EvidenceCheck } from './sync/sync-engine';
import { SyncEngine } from './sync/sync-engine';
import { hashOneFile } from './hashing/hash-one-file';

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
  /** Where structured logs go; by default `logs/evidence-desk.log` in the data folder. */
  log?: Logger;
  /** Start syncing at once (default). The CLI's read-only commands do not. */
  sync?: boolean;
}

export interface CoreStatus {
  profile: { id: string; kind: ServiceProfile['kind'] | 'embedded'; demo: boolean };
  counts: StateCounts;
  connectivity: ConnectivityStatus;
}

export interface CoreEvents {
  row: [row: CertificationRow];
  connectivity: [status: ConnectivityStatus];
  progress: [progress: IntakeProgress];
}

export interface FileVerification {
  path: string;
  assetHash: string;
  certifications: { row: CertificationRow; check: EvidenceCheck }[];
}

const ACTIVE_PROFILE = 'active_profile';
const profileKey = (id: string) => `profile:${id}`;
const logKeyKey = (id: string) => `log_key:${id}`;

/**
 * The composition root: everything Evidence Desk does except its window, built from one
 * config. The Electron shell, the CLI and the tests drive this and nothing below it.
 */
export class EvidenceCore extends EventEmitter<CoreEvents> {
  readonly store: CertificationStore;
  private readonly pool: HashPool;
  private engine: SyncEngine | undefined;
  private client: ServiceClient | undefined;
  private sandbox: Sandbox | undefined;
  private profileId: string;
  private readonly log: Logger;

  private constructor(
    private readonly options: CoreOptions,
    private readonly db: ReturnType<typeof openQueueDb>,
  ) {
    super();
    this.store = new CertificationStore(db);
    this.pool = new HashPool(options.hashWorkers);
    this.log = options.log ?? fileLogger(join(options.dataDir, 'logs', 'evidence-desk.log'));
    this.profileId = this.store.getSetting(ACTIVE_PROFILE) ?? EMBEDDED_PROFILE_ID;
  }

  static async open(options: CoreOptions): Promise<EvidenceCore> {
    const core = new EvidenceCore(options, openQueueDb(join(options.dataDir, 'queue.sqlite')));
    try {
      await core.connect();
      core.log.log('info', 'core.opened', { profile: core.profileId, sync: options.sync !== false });
    } catch (error) {
      await core.close();
      throw error;
    }
    return core;
  }

  get activeProfileId(): string {
    return this.profileId;
  }

  async certify(paths: readonly string[], metadata: unknown): Promise<IntakeReport> {
    const report = await certifyPaths(paths, metadata, {
      store: this.store,
      pool: this.pool,
      profileId: this.profileId,
      onQueued: (rows) => {
        for (const row of rows) this.emit('row', row);
        this.engine?.wake();
      },
      onProgress: (progress) => this.emit('progress', progress),
    });
    this.log.log('info', 'intake.finished', {
      queued: report.queued.length,
      problems: report.problems.map((problem) => problem.code),
    });
    return report;
  }

  status(): CoreStatus {
    const profile = this.readProfile(this.profileId);
    return {
      profile: {
        id: this.profileId,
        kind: profile?.kind ?? 'embedded',
        demo: this.profileId === EMBEDDED_PROFILE_ID || profile?.kind === 'service-sandbox',
      },
      counts: this.store.counts(this.profileId),
      connectivity: this.engine?.connectivity ?? { state: 'unknown', message: null, nextProbeAt: null },
    };
  }

  list(query: Omit<ListQuery, 'profileId'>): CertificationRow[] {
    return this.store.list({ ...query, profileId: this.profileId });
  }

  count(query: Omit<ListQuery, 'profileId' | 'limit' | 'offset'>): number {
    return this.store.count({ ...query, profileId: this.profileId });
  }

  details(id: number): { row: CertificationRow; history: HistoryEntry[] } {
    const row = this.store.get(id);
    if (!row) throw new DeskError('not_found', `There is no certification ${id}.`);
    return { row, history: this.store.history(id) };
  }

  retry(id: number): void {
    this.store.retry(id);
    this.changed(id);
    this.engine?.wake();
  }

  remove(id: number): void {
    this.store.remove(id);
  }

  /** Starts sending, for a core opened with `sync: false`. */
  startSync(): void {
    this.options.sync = true;
    this.engine?.start();
  }

  tryNow(): void {
    this.engine?.tryNow();
  }

  /** Resolves once each of these rows is anchored or failed for good. */
  waitUntilSettled(ids: readonly number[], timeoutMs = 10 * 60_000): Promise<CertificationRow[]> {
    const settled = () =>
      ids
        .map((id) => this.store.get(id))
        .every((row) => !row || row.state === 'anchored' || row.state === 'failed');
    const rows = () =>
      ids.map((id) => this.store.get(id)).filter((row): row is CertificationRow => row !== undefined);
    if (settled()) return Promise.resolve(rows());
    return new Promise((resolve, reject) => {
      const onRow = () => {
        if (!settled()) return;
        cleanup();
        resolve(rows());
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new DeskError(
            'timeout',
            'The certifications did not settle in time; they stay queued and will go on syncing.',
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.off('row', onRow);
      };
      this.on('row', onRow);
    });
  }

  /** Hashes a file and re-checks, offline, the evidence of every certification of it. */
  async verifyFile(path: string): Promise<FileVerification> {
    const hashed = await hashOneFile(this.pool, path);
    const rows = this.store.findByHash(this.profileId, hashed.hash);
    const certifications = [];
    for (const row of rows) {
      const evidence = row.evidence === null ? null : (JSON.parse(row.evidence) as unknown);
      const check: EvidenceCheck =
        row.state === 'anchored'
          ? await checkEvidence(row, evidence, { pinnedLogKey: () => this.pinnedLogKey() })
          : { verification: 'unverifiable', message: `Not anchored yet (${row.state}).` };
      certifications.push({ row, check });
    }
    return { path, assetHash: hashed.hash, certifications };
  }

  /** Saves a service profile: settings in the database, secrets in the keychain. */
  async saveProfile(profile: ServiceProfile, secrets: Partial<Record<SecretName, string>>): Promise<void> {
    const parsed = serviceProfileSchema.parse(profile);
    if (parsed.id === EMBEDDED_PROFILE_ID)
      throw new DeskError('invalid_profile', 'The embedded sandbox needs no settings.');
    for (const [name, value] of Object.entries(secrets) as [SecretName, string][]) {
      if (value) await this.options.secrets.set(parsed.id, name, value);
    }
    this.store.setSetting(profileKey(parsed.id), JSON.stringify(parsed));
  }

  readProfile(id: string): ServiceProfile | undefined {
    const json = this.store.getSetting(profileKey(id));
    return json ? serviceProfileSchema.parse(JSON.parse(json)) : undefined;
  }

  /** Which secrets a profile has in the keychain: the shells learn that, never the values. */
  async secretsSet(id: string): Promise<Record<SecretName, boolean>> {
    const has = async (name: SecretName) => (await this.options.secrets.get(id, name)) !== null;
    return {
      client_secret: await has('client_secret'),
      api_secret: await has('api_secret'),
      hmac_key: await has('hmac_key'),
    };
  }

  /** Switches where certifications go. Rows stay with the profile they were made for. */
  async useProfile(id: string): Promise<void> {
    if (id !== EMBEDDED_PROFILE_ID && !this.readProfile(id))
      throw new DeskError('unknown_profile', `There is no service profile "${id}".`);
    await this.disconnect();
    this.profileId = id;
    this.store.setSetting(ACTIVE_PROFILE, id);
    await this.connect();
  }

  /** Fetches a token with a profile's settings and says what happened. */
  async testConnection(id = this.profileId): Promise<CallResult<{ expiresInSeconds: number }>> {
    const connection = await this.connectionFor(id);
    return new ServiceClient(connection).testConnection();
  }

  async close(): Promise<void> {
    await this.disconnect();
    await this.pool.close();
    if (this.db.open) this.db.close();
  }

  private async connect(): Promise<void> {
    const connection = await this.connectionFor(this.profileId);
    this.client = new ServiceClient(connection);
    const engine = new SyncEngine({
      log: this.log,
      pacing: this.options.pacing,
      store: this.store,
      profileId: this.profileId,
      client: this.client,
      concurrency: this.options.concurrency,
      verifyEvidence: (row, evidence) =>
        checkEvidence(row, evidence, { pinnedLogKey: () => this.pinnedLogKey() }),
    });
    engine.on('row', (id) => this.changed(id));
    engine.on('connectivity', (status) => {
      this.log.log(status.state === 'online' ? 'info' : 'warn', 'sync.connectivity', {
        state: status.state,
        message: status.message,
      });
      this.emit('connectivity', status);
    });
    this.engine = engine;
    if (this.options.sync !== false) engine.start();
  }

  private async disconnect(): Promise<void> {
    await this.engine?.stop();
    this.engine = undefined;
    await this.sandbox?.stop();
    this.sandbox = undefined;
  }

  private async connectionFor(id: string): Promise<ServiceConnection> {
    if (id === EMBEDDED_PROFILE_ID) {
      this.sandbox ??= await startSandbox({
        dbPath: join(this.options.dataDir, 'embedded-sandbox.sqlite'),
        port: 0,
        ...this.options.embeddedSandbox,
      });
      const demo = this.sandbox.demoClient;
      return {
        baseUrl: this.sandbox.baseUrl,
        tokenUrl: this.sandbox.tokenUrl,
        clientId: demo.clientId,
        clientSecret: demo.clientSecret,
        signing: {},
      };
    }
    const profile = this.readProfile(id);
    if (!profile) throw new DeskError('unknown_profile', `There is no service profile "${id}".`);
    const secret = (name: SecretName) => this.options.secrets.get(id, name);
    const clientSecret = await secret('client_secret');
    if (!clientSecret)
      throw new DeskError(
        'secret_missing',
        `The client secret for "${id}" is not in the keychain; enter it in the settings.`,
      );
    const apiSecret = await secret('api_secret');
    const hmacKey = profile.signRequests ? await secret('hmac_key') : null;
    if (profile.signRequests && !hmacKey)
      throw new DeskError(
        'secret_missing',
        `Signing is on for "${id}" but its HMAC key is not in the keychain.`,
      );
    return {
      baseUrl: profile.baseUrl,
      tokenUrl: profile.tokenUrl,
      clientId: profile.clientId,
      clientSecret,
      signing: {
        hmacKey: hmacKey ?? undefined,
        apiKey: profile.apiKey || undefined,
        apiSecret: apiSecret ?? undefined,
      },
    };
  }

  /** The log key is pinned per environment on first use: a later key change is not silently trusted. */
  private async pinnedLogKey(): Promise<string | undefined> {
    const pinned = this.store.getSetting(logKeyKey(this.profileId));
    if (pinned) return pinned;
    const fetched = await this.client?.fetchLogKey();
    if (!fetched?.ok) return undefined;
    this.store.setSetting(logKeyKey(this.profileId), fetched.value);
    return fetched.value;
  }

  private changed(id: number): void {
    const row = this.store.get(id);
    if (row) this.emit('row', row);
  }
}
