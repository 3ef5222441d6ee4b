import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import type { Logger } from '../logging/logger';
import { silentLogger } from '../logging/logger';
import type { CertificationRow, CertificationStore, Verification } from '../store/certifications-store';
import type { CertificationReading } from '../service/response-reader';
import type { Pacing } from '../service/retry-policy';
import { DEFAULT_PACING, backoffDelay, pollDelay } from '../service/retry-policy';
import type { CallResult, ServiceClient } from '../service/service-client';
import { runBounded } from './run-bounded';

/** `standby`: another process on this computer is sending this queue; this one waits its turn. */
export type Connectivity = 'unknown' | 'online' | 'offline' | 'auth_failed' | 'standby';

const LEASE_TTL_MS = 30_000;
const LEASE_RENEW_MS = 10_000;
const STANDBY_RETRY_MS = 5_000;

// Requests in a row that got no answer at all before the service counts as unreachable.
const UNANSWERED_BEFORE_OFFLINE = 3;

export interface ConnectivityStatus {
  state: Connectivity;
  message: string | null;
  /** When the next attempt to reach the service is planned, while offline. */
  nextProbeAt: number | null;
}

export interface EvidenceCheck {
  verification: Verification;
  message: string;
}

export interface SyncEngineOptions {
  store: CertificationStore;
  profileId: string;
  client: Pick<ServiceClient, 'createCertification' | 'readCertification'>;
  verifyEvidence(row: CertificationRow, evidence: unknown): Promise<EvidenceCheck>;
  concurrency?: number;
  /** Server errors in a row before a certification is failed for good. */
  maxSubmitAttempts?: number;
  now?: () => number;
  random?: () => number;
  log?: Logger;
  /** Defaults to DEFAULT_PACING; tests shorten it so that hostile runs end in seconds. */
  pacing?: Pacing;
}

export interface SyncEvents {
  row: [id: number];
  connectivity: [status: ConnectivityStatus];
}

/**
 * Moves queued rows to the service and pending rows to `anchored`, reading all it needs from
 * the table: after a restart it resumes exactly there. One timer, set to the earliest due
 * row, so an idle or offline engine does no work at all between attempts.
 */
export class SyncEngine extends EventEmitter<SyncEvents> {
  private status: ConnectivityStatus = { state: 'unknown', message: null, nextProbeAt: null };
  private offlineProbes = 0;
  private unansweredInARow = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private ticking: Promise<void> | undefined;
  private again = false;
  private readonly concurrency: number;
  private readonly maxSubmitAttempts: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly log: Logger;
  private readonly pacing: Pacing;
  private readonly lease = { holder: randomUUID(), pid: process.pid, host: hostname() };
  private leaseRenewedAt: number | undefined;

  constructor(private readonly options: SyncEngineOptions) {
    super();
    this.concurrency = options.concurrency ?? 8;
    this.maxSubmitAttempts = options.maxSubmitAttempts ?? 12;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.log = options.log ?? silentLogger;
    this.pacing = options.pacing ?? DEFAULT_PACING;
  }

  get connectivity(): ConnectivityStatus {
    return this.status;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /** Stops planning new work and waits for requests already on the wire. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.ticking;
    if (this.leaseRenewedAt !== undefined) this.options.store.releaseSyncLease(this.lease.holder);
    this.leaseRenewedAt = undefined;
  }

  /** Something changed (rows queued, "try now"): look at the table again. */
  wake(): void {
    if (!this.running) return;
    clearTimeout(this.timer);
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick().finally(() => {
      this.ticking = undefined;
      if (this.again) this.wake();
      else this.scheduleNext();
    });
  }

  /** Everything waiting is due now, even while offline. */
  tryNow(): void {
    this.options.store.makeDueNow(this.options.profileId, this.now());
    this.wake();
  }

  private async tick(): Promise<void> {
    const { store, profileId } = this.options;
    while (this.running) {
      this.again = false;
      const now = this.now();
      if (!this.holdLease(now)) return;
      const reachable = this.status.state === 'online' || this.status.state === 'unknown';
      // While unreachable, one request probes; the rest wait for its answer.
      const submits = store.claimDue(profileId, now, reachable ? this.concurrency * 4 : 1);
      // Sending the queue comes first: status polls wait while a backlog is still being sent.
      const backlog = submits.length === (reachable ? this.concurrency * 4 : 1);
      const polls = backlog ? [] : store.duePolls(profileId, now, reachable ? this.concurrency * 4 : 1);
      for (const row of submits) this.emit('row', row.id);
      if (submits.length + polls.length === 0) return;
      await runBounded(
        [
          ...submits.map(
            (row) => () => this.submit(row).catch((error: unknown) => this.taskFailed(row, error)),
          ),
          ...polls.map((row) => () => this.poll(row).catch((error: unknown) => this.taskFailed(row, error))),
        ],
        this.concurrency,
      );
    }
  }

  /**
   * Only one process sends a queue at a time. Whoever takes the lease first resumes what a
   * crashed sender left on the wire; the others stand by and look again every few seconds.
   */
  private holdLease(now: number): boolean {
    if (this.leaseRenewedAt !== undefined && now - this.leaseRenewedAt < LEASE_RENEW_MS) return true;
    const held = this.options.store.acquireSyncLease(this.lease, now, LEASE_TTL_MS, isProcessAlive);
    if (!held) {
      this.leaseRenewedAt = undefined;
      if (this.status.state !== 'standby') {
        this.setStatus({
          state: 'standby',
          message: 'Another Evidence Desk on this computer is sending this queue; this one waits its turn.',
          nextProbeAt: now + STANDBY_RETRY_MS,
        });
      }
      return false;
    }
    if (this.leaseRenewedAt === undefined) {
      const resumed = this.options.store.resumeInterrupted(now);
      if (resumed > 0) this.log.log('info', 'sync.resumed', { rows: resumed });
      if (this.status.state === 'standby')
        this.setStatus({ state: 'unknown', message: null, nextProbeAt: null });
    }
    this.leaseRenewedAt = now;
    return true;
  }

  /** A row whose handling threw stays safe: logged, and sent again later with the same request id. */
  private taskFailed(row: CertificationRow, error: unknown): void {
    this.log.log('error', 'sync.row_failed_unexpectedly', { row: row.id, error: (error as Error).message });
    const current = this.options.store.get(row.id);
    if (current?.state === 'submitting') {
      this.options.store.requeue(
        row.id,
        {
          code: 'internal_error',
          message: 'Sending was interrupted by an internal error; it will be tried again.',
        },
        this.now() + STANDBY_RETRY_MS,
        this.now(),
        false,
      );
    }
    this.emit('row', row.id);
  }

  private scheduleNext(): void {
    if (!this.running) return;
    if (this.status.state === 'standby') {
      this.timer = setTimeout(() => this.wake(), STANDBY_RETRY_MS);
      return;
    }
    const due = this.options.store.nextDueAt(this.options.profileId);
    if (due === null) return;
    this.timer = setTimeout(() => this.wake(), Math.max(0, due - this.now()));
  }

  private async submit(row: CertificationRow): Promise<void> {
    const { store } = this.options;
    const result = await this.options.client.createCertification(
      {
        asset_hash: row.assetHash,
        asset_type: row.assetType,
        source_system: row.sourceSystem,
        event_type: row.eventType,
      },
      row.requestId,
    );
    const now = this.now();
    if (result.ok) {
      this.reachedService();
      store.markPending(
        row.id,
        result.value.serviceId,
        result.value.serviceState,
        result.raw,
        now + pollDelay(0, this.pacing),
        now,
      );
      if (result.value.progress !== 'in_progress') await this.settle(row.id, result.value, result.raw);
    } else if (this.lostService(result)) {
      store.requeue(row.id, result, this.status.nextProbeAt ?? now, now, false);
    } else if (result.offline) {
      // One lost connection is not an outage: this row alone tries again shortly.
      store.requeue(row.id, result, now + backoffDelay(1, this.pacing.submit, this.random), now, false);
    } else if (result.retryable && row.attempts + 1 < this.maxSubmitAttempts) {
      this.reachedService();
      const delay = Math.max(
        result.retryAfterMs ?? 0,
        backoffDelay(row.attempts, this.pacing.submit, this.random),
      );
      store.requeue(row.id, result, now + delay, now);
    } else {
      this.reachedService();
      store.markFailed(row.id, result, result.raw ?? null, now);
    }
    this.emit('row', row.id);
  }

  private async poll(row: CertificationRow): Promise<void> {
    const { store } = this.options;
    const result = await this.options.client.readCertification(row.serviceId as string);
    const now = this.now();
    if (result.ok) {
      this.reachedService();
      if (result.value.progress === 'in_progress') {
        store.recordPoll(
          row.id,
          result.value.serviceState,
          result.raw,
          now + pollDelay(row.attempts + 1, this.pacing),
          now,
        );
      } else {
        await this.settle(row.id, result.value, result.raw);
      }
    } else if (this.lostService(result)) {
      store.recordPoll(row.id, null, null, this.status.nextProbeAt ?? now, now);
    } else if (result.offline) {
      store.recordPoll(row.id, null, null, now + pollDelay(row.attempts + 1, this.pacing), now);
    } else if (result.status === 404) {
      this.reachedService();
      store.markFailed(
        row.id,
        { code: 'service_lost', message: 'The service no longer knows this certification.' },
        result.raw ?? null,
        now,
      );
    } else {
      this.reachedService();
      store.recordPoll(
        row.id,
        null,
        null,
        now + Math.max(result.retryAfterMs ?? 0, pollDelay(row.attempts + 1, this.pacing)),
        now,
      );
    }
    this.emit('row', row.id);
  }

  private async settle(id: number, reading: CertificationReading, raw: string): Promise<void> {
    const { store } = this.options;
    const row = store.get(id) as CertificationRow;
    if (reading.progress === 'failed') {
      const message =
        reading.failureMessage ??
        `The service reports this certification as ${reading.serviceState ?? 'failed'}.`;
      store.markFailed(id, { code: 'service_failed', message }, raw, this.now());
      return;
    }
    const check = await this.options.verifyEvidence(row, reading.evidence);
    store.markAnchored(
      id,
      {
        serviceState: reading.serviceState ?? 'anchored',
        rawResponse: raw,
        evidence:
          reading.evidence === null || reading.evidence === undefined
            ? null
            : JSON.stringify(reading.evidence),
        verification: check.verification,
        verificationMessage: check.message,
      },
      this.now(),
    );
  }

  /**
   * True when the service cannot be used right now: its credentials are refused, or several
   * requests in a row got no answer at all. Then everything waits for one probe.
   */
  private lostService(result: Extract<CallResult<unknown>, { ok: false }>): boolean {
    if (result.offline) this.unansweredInARow++;
    const unreachable =
      result.offline &&
      (this.unansweredInARow >= UNANSWERED_BEFORE_OFFLINE || this.status.state === 'offline');
    if (!unreachable && result.code !== 'auth_failed') return false;
    const now = this.now();
    const planned = this.status.nextProbeAt;
    // Requests that were already on the wire fail together: they join the planned probe, not push it back.
    const nextProbeAt =
      planned !== null && planned > now
        ? planned
        : now + Math.max(500, backoffDelay(this.offlineProbes++, this.pacing.offlineProbe, this.random));
    this.options.store.deferDue(this.options.profileId, nextProbeAt);
    this.setStatus({
      state: result.offline ? 'offline' : 'auth_failed',
      message: result.message,
      nextProbeAt,
    });
    return true;
  }

  private reachedService(): void {
    this.unansweredInARow = 0;
    if (this.status.state === 'online') return;
    const wasCutOff = this.status.state === 'offline' || this.status.state === 'auth_failed';
    this.offlineProbes = 0;
    this.setStatus({ state: 'online', message: null, nextProbeAt: null });
    if (wasCutOff) {
      // Back online: drain the queue now rather than at each row's deferred time.
      this.options.store.makeDueNow(this.options.profileId, this.now());
      this.again = true;
    }
  }

  private setStatus(status: ConnectivityStatus): void {
    this.status = status;
    this.emit('connectivity', status);
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
