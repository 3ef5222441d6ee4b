import type { ErrorCode } from '../errors';
import { DeskError, isDeskError } from '../errors';
import { isSettled, isUnsent } from '../../protocol/states';
import type { CertificationRow, ConnectivityStatus, Sender } from '../../protocol/views';
import { isSendingBlocked } from '../../protocol/views';
import type { ProfileConnections } from '../config/profile-connections';
import type { Logger } from '../logging/logger';
import type { Pacing } from '../service/retry-policy';
import { ServiceClient } from '../service/service-client';
import type { Store } from '../store';
import type { TimestampEngine } from '../timestamps/timestamp-engine';
import type { LeaseTiming } from './lease-keeper';
import { waitForRows } from './row-waiter';
import type { SyncEngineOptions } from './sync-engine';
import { SyncEngine } from './sync-engine';
import { said } from '../../protocol/said';
import type { LogReader, LogTrust } from '../evidence/log-trust';
import { logReaderOnDemand } from './log-reader-on-demand';
import { EMBEDDED_PROFILE_ID } from '../../protocol/profiles';

const DEFAULT_WAIT_MS = 10 * 60_000;
const SETUP_PROBLEMS: ReadonlySet<ErrorCode> = new Set([
  'secret_missing',
  'keychain_unavailable',
  'unknown_profile',
  'invalid_profile',
]);
const NOT_STARTED: ConnectivityStatus = { state: 'unknown', message: null, nextProbeAt: null };
const PAUSED: ConnectivityStatus = {
  state: 'paused',
  message: said('sync.paused'),
  nextProbeAt: null,
};

/** The one place connectivity is announced and heard: the core's own event. */
export interface ConnectivityEvents {
  emit(event: 'connectivity', status: ConnectivityStatus): unknown;
  on(event: 'connectivity', listener: (status: ConnectivityStatus) => void): unknown;
  off(event: 'connectivity', listener: (status: ConnectivityStatus) => void): unknown;
}

export interface SyncControlOptions {
  store: Store;
  profiles: ProfileConnections;
  timestamps: TimestampEngine;
  log: Logger;
  /** Where connectivity is announced (the core's `connectivity` event), and heard by the waits. */
  events: ConnectivityEvents;
  checkEvidence: SyncEngineOptions['verifyEvidence'];
  /** Told which service log to read whenever the connection changes. */
  logTrust: Pick<LogTrust, 'readFrom'>;
  /** Start sending at once (default). The CLI's read-only commands do not. */
  sync?: boolean;
  sender?: Sender;
  pacing?: Pacing;
  random?: () => number;
  leaseTiming?: LeaseTiming;
  concurrency?: number;
}

/**
 * Sending the active profile's queue: the connection and its engine, pause and resume, "try now",
 * and the waits the CLI and the shells use. The queue itself stays in the store; this only drives it.
 */
export class SyncControl {
  private engine: SyncEngine | undefined;
  private serviceClient: ServiceClient | undefined;
  // The connection being made on demand, once; and which connection a reader on demand belongs to.
  private connecting: Promise<void> | undefined;
  private generation = 0;
  // Why the active profile cannot be used, when it cannot: the core still opens, shows and queues.
  private setupProblem: ConnectivityStatus | undefined;
  private isPaused = false;
  private enabled: boolean;

  constructor(private readonly options: SyncControlOptions) {
    this.enabled = options.sync !== false;
  }

  get connectivity(): ConnectivityStatus {
    if (this.isPaused) return PAUSED;
    return this.setupProblem ?? this.engine?.status ?? NOT_STARTED;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  /**
   * Connects to the active profile's service and starts its engine, unless sending is off or
   * paused. A core that does not send, on the demo sandbox, connects only when something asks the
   * service (its log, or `start`): the command line's `status` or `profile show` never start the
   * sandbox they do not use. Only the demo profile waits: its connection is a server to start,
   * while a service profile's costs nothing and says at once when its settings cannot be used.
   */
  async connect(): Promise<void> {
    this.setupProblem = undefined;
    this.connecting = undefined;
    if (!this.enabled && this.options.profiles.activeId === EMBEDDED_PROFILE_ID) {
      this.options.logTrust.readFrom(this.readerOnDemand(this.generation));
      return;
    }
    await this.connectNow();
  }

  private connectOnce(): Promise<void> {
    return (this.connecting ??= this.connectNow());
  }

  /** The service's log, read through a connection made on the first question. */
  private readerOnDemand(generation: number): LogReader {
    return logReaderOnDemand(async () => {
      if (generation !== this.generation) return undefined;
      await this.connectOnce().catch((error: Error) =>
        this.options.log.log('error', 'sync.connect_failed', { error: error.message }),
      );
      return this.serviceClient;
    });
  }

  private async connectNow(): Promise<void> {
    const { profiles, log, events, store } = this.options;
    let connection;
    try {
      connection = await profiles.connectionFor(profiles.activeId);
    } catch (error) {
      if (!isDeskError(error) || !SETUP_PROBLEMS.has(error.code)) throw error;
      // The profile cannot be used as it is; everything else still works, and says how to fix it.
      this.setupProblem = { state: 'needs_setup', message: error.said, nextProbeAt: null };
      log.log('warn', 'sync.needs_setup', { profile: profiles.activeId, code: error.code });
      events.emit('connectivity', this.setupProblem);
      return;
    }
    this.serviceClient = new ServiceClient(connection);
    // The log trust reads the service's log through the same client, injected here, not looked up.
    this.options.logTrust.readFrom(this.serviceClient);
    const engine = new SyncEngine({
      log,
      pacing: this.options.pacing,
      random: this.options.random,
      leaseTiming: this.options.leaseTiming,
      sender: this.options.sender,
      queue: store.certifications.sending,
      lease: store.lease,
      profileId: profiles.activeId,
      client: this.serviceClient,
      concurrency: this.options.concurrency,
      verifyEvidence: this.options.checkEvidence,
    });
    engine.on('connectivity', (status) => {
      log.log(status.state === 'online' ? 'info' : 'warn', 'sync.connectivity', {
        state: status.state,
        reason: status.message?.key ?? null,
      });
      events.emit('connectivity', status);
    });
    this.engine = engine;
    if (this.enabled && !this.isPaused) this.run();
  }

  async disconnect(): Promise<void> {
    this.generation++;
    this.connecting = undefined;
    await this.options.timestamps.stop();
    await this.engine?.stop();
    this.engine = undefined;
    this.serviceClient = undefined;
    this.options.logTrust.readFrom(null);
  }

  /** Starts sending, for a core opened with `sync: false`. */
  start(): void {
    this.enabled = true;
    if (this.engine) this.run();
    else if (!this.setupProblem)
      void this.connectOnce().catch((error: Error) =>
        this.options.log.log('error', 'sync.connect_failed', { error: error.message }),
      );
  }

  /**
   * Stops sending until resumed (the tray's "Pause sending"): nothing is sent or checked, the
   * lease goes to whoever else wants it, and certifying still queues.
   */
  async pause(): Promise<void> {
    if (this.isPaused) return;
    this.isPaused = true;
    await this.options.timestamps.stop();
    await this.engine?.stop();
    this.options.events.emit('connectivity', PAUSED);
  }

  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    if (this.enabled && this.engine) this.run();
    this.options.events.emit('connectivity', this.connectivity);
  }

  /** Something was queued or retried: look at the queue now. */
  wake(): void {
    this.engine?.wake();
  }

  /** Everything waiting is due now, even while offline. */
  tryNow(): void {
    this.engine?.tryNow();
  }

  /** Waits until the timestamp requests due now are answered (see TimestampEngine.answered). */
  timestampsAnswered(): Promise<void> {
    return this.options.timestamps.answered();
  }

  /**
   * Resolves once each of these rows is anchored or failed for good, whoever sends them. Fails at
   * once, with the reason, when nothing can be sent (credentials refused, profile not set up).
   */
  async waitUntilSettled(ids: readonly number[], timeoutMs = DEFAULT_WAIT_MS): Promise<CertificationRow[]> {
    const { store } = this.options;
    const outcome = await this.whileSendingPossible((signal) =>
      waitForRows({
        feed: store.changes,
        ids,
        isDone: isSettled,
        notDone: (open) => store.certifications.reads.stillWaiting(open),
        timeoutMs,
        signal,
      }),
    );
    if (outcome === 'timeout') throw new DeskError('timeout', said('sync.didNotSettle'));
    if (outcome === 'stopped') throw this.blockedError();
    return store.certifications.reads.getMany(ids);
  }

  /**
   * Gives the engine a moment to hand these rows to the service: resolves when none is still
   * unsent, when `timeoutMs` passes, or when the service turns out to be cut off.
   */
  async waitUntilSent(ids: readonly number[], timeoutMs = 10_000): Promise<CertificationRow[]> {
    const { store, events } = this.options;
    const offline = new AbortController();
    const onConnectivity = (status: ConnectivityStatus) => {
      if (status.state === 'offline') offline.abort();
    };
    events.on('connectivity', onConnectivity);
    try {
      await this.whileSendingPossible((blocked) =>
        waitForRows({
          feed: store.changes,
          ids,
          isDone: (state) => !isUnsent(state),
          notDone: (open) =>
            store.certifications.reads
              .getMany(open)
              .filter((row) => isUnsent(row.state))
              .map((row) => row.id),
          timeoutMs,
          signal: AbortSignal.any([blocked, offline.signal]),
        }),
      );
    } finally {
      events.off('connectivity', onConnectivity);
    }
    return store.certifications.reads.getMany(ids);
  }

  /** Why nothing can be sent now, as an error the shells show. */
  blockedError(): DeskError {
    return new DeskError(
      'sending_blocked',
      said('sync.blocked', { reason: this.connectivity.message ?? said('sync.cannotBeUsed') }),
    );
  }

  private run(): void {
    this.engine?.start();
    this.options.timestamps.start();
  }

  /** Runs a wait that is cut short (its signal aborted) as soon as nothing can be sent. */
  private async whileSendingPossible<T>(wait: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const { events } = this.options;
    const blocked = new AbortController();
    const onConnectivity = (status: ConnectivityStatus) => {
      if (isSendingBlocked(status.state)) blocked.abort();
    };
    onConnectivity(this.connectivity);
    events.on('connectivity', onConnectivity);
    try {
      return await wait(blocked.signal);
    } finally {
      events.off('connectivity', onConnectivity);
    }
  }
}
