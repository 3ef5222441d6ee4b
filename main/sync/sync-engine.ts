import { EventEmitter } from 'node:events';
import type { ConnectivityStatus, EvidenceCheck, Sender } from '../../protocol/views';
import type { Logger } from '../logging/logger';
import { silentLogger } from '../logging/logger';
import type { Pacing } from '../service/retry-policy';
import { DEFAULT_PACING } from '../service/retry-policy';
import type { ServiceClient } from '../service/service-client';
import type { CertificationRow, QueueSending, SyncLeaseStore } from '../store';
import { ConnectivityTracker } from './connectivity';
import type { LeaseTiming } from './lease-keeper';
import { DEFAULT_LEASE, LeaseKeeper } from './lease-keeper';
import type { PolicyContext } from './outcome-policy';
import type { decideSubmit } from './outcome-policy';
import { RowExchange } from './row-exchange';
import { Rounds } from '../tools/rounds';
import type { LaneTask } from './run-bounded';
import { runLanes } from './run-bounded';
import { said } from '../../protocol/said';

export type { ConnectivityStatus, EvidenceCheck };

const STANDBY_RETRY_MS = 5_000;

export interface SyncEngineOptions {
  queue: QueueSending;
  lease: SyncLeaseStore;
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
  /** Defaults to DEFAULT_LEASE; tests shorten it to prove a slow batch keeps its lease. */
  leaseTiming?: LeaseTiming;
  /** Which kind of process this is, written with the lease so the other kind can say who sends. */
  sender?: Sender;
}

export interface SyncEvents {
  connectivity: [status: ConnectivityStatus];
}

/**
 * The scheduler: moves queued rows to the service and pending rows to `anchored`, reading all
 * it needs from the table, so after a restart it resumes exactly there. One timer, set to the
 * earliest due row, so an idle or offline engine does no work at all between attempts. What an
 * answer means is decided by the outcome policy; whether the service is usable, by the
 * connectivity tracker; whether this process may send at all, by the lease keeper.
 */
export class SyncEngine extends EventEmitter<SyncEvents> {
  private readonly rounds: Rounds;
  private leaseLost = false;
  // Withdraws this round's requests the moment the lease is lost, even those waiting for a token.
  private withdraw = new AbortController();
  private readonly concurrency: number;
  private readonly maxSubmitAttempts: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly log: Logger;
  private readonly pacing: Pacing;
  private readonly lease: LeaseKeeper;
  private readonly standbyLookMs: number;
  private readonly connectivity: ConnectivityTracker;
  private readonly exchange: RowExchange;

  constructor(private readonly options: SyncEngineOptions) {
    super();
    this.concurrency = options.concurrency ?? 8;
    this.maxSubmitAttempts = options.maxSubmitAttempts ?? 12;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.log = options.log ?? silentLogger;
    this.pacing = options.pacing ?? DEFAULT_PACING;
    const leaseTiming = options.leaseTiming ?? DEFAULT_LEASE;
    this.standbyLookMs = leaseTiming.standbyLookMs ?? STANDBY_RETRY_MS;
    this.lease = new LeaseKeeper(options.lease, leaseTiming, this.now, options.sender ?? 'app');
    this.connectivity = new ConnectivityTracker(this.pacing, this.random, (status) =>
      this.emit('connectivity', status),
    );
    this.exchange = new RowExchange({
      queue: options.queue,
      client: options.client,
      verifyEvidence: options.verifyEvidence,
      now: this.now,
      mayProceed: () => this.mayProceed(),
      signal: () => this.withdraw.signal,
      policyContext: (result) => this.policyContext(result),
    });
    // A round that failed as a whole (the queue busy, a disk error) is logged and tried again later.
    this.rounds = new Rounds(
      () => this.tick(),
      () => this.nextRoundAt(),
      (error) => this.log.log('error', 'sync.round_failed', { error: error.message }),
      this.now,
    );
  }

  get status(): ConnectivityStatus {
    return this.connectivity.status;
  }

  start(): void {
    this.rounds.start();
  }

  /** Stops planning new work and waits for requests already on the wire. */
  async stop(): Promise<void> {
    await this.rounds.stop();
    this.lease.release();
  }

  /** Something changed (rows queued, "try now"): look at the table again. */
  wake(): void {
    this.rounds.wake();
  }

  /** Everything waiting is due now, even while offline. */
  tryNow(): void {
    this.options.queue.makeDueNow(this.options.profileId, this.now());
    this.connectivity.probeNow(this.now());
    this.wake();
  }

  private async tick(): Promise<void> {
    while (this.rounds.isRunning) {
      if (!this.takeLease()) return;
      if (this.connectivity.waitingForProbe(this.now())) return;
      this.leaseLost = false;
      this.withdraw = new AbortController();
      // While unreachable, one request probes; the rest wait for its answer.
      const lanes = this.connectivity.reachable ? this.concurrency : 1;
      const work = this.roundOfWork();
      await this.lease.keepWhile(
        () => runLanes(work.next, lanes),
        () => this.loseLease(),
      );
      if (this.leaseLost || work.handedOut() === 0) return;
    }
  }

  /**
   * A round's requests, handed out as lanes free up. A row to send comes first, claimed one at a
   * time: a crash leaves claimed only what is on the wire, and only that is sent again. A lane whose
   * row was accepted claims its next in the commit that writes the answer: one commit a send, not
   * two (each writes a dozen pages of the queue's log; the two were half of what sending cost this
   * process). Then the status polls due, none twice at once.
   */
  private roundOfWork(): { next: () => LaneTask | undefined; handedOut: () => number } {
    const { queue, profileId } = this.options;
    let handedOut = 0;
    let polls: CertificationRow[] = [];
    const polling = new Set<number>();
    // Cut off during the round: what is on the wire finishes, nothing more starts.
    const mayHandOut = () => this.mayProceed() && (handedOut === 0 || this.connectivity.reachable);
    const claimOne = (): CertificationRow | undefined => {
      if (!mayHandOut()) return undefined;
      const [row] = queue.claimDue(profileId, this.now(), 1);
      if (row) handedOut++;
      return row;
    };
    const sending =
      (row: CertificationRow): LaneTask =>
      async () => {
        // Kept as soon as it is claimed, so the row claimed is sent whatever fails after; unless the
        // commit itself failed, which took the claim back with the answer.
        let following: CertificationRow | undefined;
        await this.guarded(row, () =>
          this.exchange.submit(row, () => {
            following = claimOne();
          }),
        );
        return following && queue.get(following.id)?.state === 'submitting' ? sending(following) : undefined;
      };
    const next = (): LaneTask | undefined => {
      if (!mayHandOut()) return undefined;
      const submit = claimOne();
      if (submit) return sending(submit);
      if (polls.length === 0)
        polls = queue
          .duePolls(profileId, this.now(), this.concurrency * 4)
          .filter((row) => !polling.has(row.id));
      const poll = polls.shift();
      if (!poll) return undefined;
      handedOut++;
      polling.add(poll.id);
      return async () => {
        try {
          await this.guarded(poll, () => this.exchange.poll(poll));
        } finally {
          polling.delete(poll.id);
        }
        return undefined;
      };
    };
    return { next, handedOut: () => handedOut };
  }

  /**
   * Only one process sends a queue at a time. Whoever takes the lease resumes what a crashed
   * sender left on the wire; the others stand by and look again every few seconds.
   */
  private takeLease(): boolean {
    const outcome = this.lease.tryHold();
    if (outcome === 'refused') {
      const sentBy = this.lease.otherSender() ?? 'app';
      this.connectivity.standBy(this.now() + this.standbyLookMs, sentBy);
      return false;
    }
    if (outcome === 'acquired') {
      const resumed = this.options.queue.resumeInterrupted(this.now());
      if (resumed > 0) this.log.log('info', 'sync.resumed', { rows: resumed });
      this.connectivity.leaveStandby();
    }
    return true;
  }

  private loseLease(): void {
    this.leaseLost = true;
    this.withdraw.abort();
    this.log.log('warn', 'sync.lease_lost', { stopped: 'at once' });
  }

  /** True while this engine may still send and write: it holds the lease and was not told otherwise. */
  private mayProceed(): boolean {
    return this.rounds.isRunning && !this.leaseLost && this.lease.holds();
  }

  /** A row whose handling threw stays safe: logged, and sent again later with the same request id. */
  private async guarded(row: CertificationRow, work: () => Promise<void>): Promise<void> {
    if (!this.mayProceed()) return;
    try {
      await work();
    } catch (error) {
      this.log.log('error', 'sync.row_failed_unexpectedly', { row: row.id, error: (error as Error).message });
      try {
        if (this.mayProceed() && this.options.queue.get(row.id)?.state === 'submitting') {
          const now = this.now();
          this.options.queue.requeue(
            row.id,
            { code: 'internal_error', said: said('sync.internalError') },
            now + STANDBY_RETRY_MS,
            now,
            false,
          );
        }
      } catch (secondary) {
        // The handler of an error must never throw itself: the row stays as it is and resumes later.
        this.log.log('error', 'sync.recovery_failed', { row: row.id, error: (secondary as Error).message });
      }
    }
  }

  /** When to look again: soon while another process sends, else when the next row is due. */
  private nextRoundAt(): number | null {
    if (this.connectivity.status.state === 'standby' || this.leaseLost)
      return this.now() + this.standbyLookMs;
    const due = this.options.queue.nextDueAt(this.options.profileId);
    const { nextProbeAt } = this.connectivity.status;
    if (due === null || nextProbeAt === null || !this.connectivity.waitingForProbe(this.now())) return due;
    return Math.max(due, nextProbeAt);
  }

  /** Connectivity learns from every answer; the policy hears whether the service is now cut off. */
  private policyContext(result: Parameters<typeof decideSubmit>[0]): PolicyContext {
    const now = this.now();
    let cutOffUntil: number | null = null;
    if (result.ok) {
      this.reachedService();
    } else {
      cutOffUntil = this.connectivity.noteFailure(result, now);
      if (cutOffUntil !== null) this.options.queue.deferDue(this.options.profileId, cutOffUntil);
      // An error answer still means the service is there.
      else if (!result.offline) this.reachedService();
    }
    return {
      now,
      pacing: this.pacing,
      random: this.random,
      maxSubmitAttempts: this.maxSubmitAttempts,
      cutOffUntil,
    };
  }

  private reachedService(): void {
    if (this.connectivity.noteAnswer()) {
      // Back online: drain the queue now rather than at each row's deferred time.
      this.options.queue.makeDueNow(this.options.profileId, this.now());
      this.rounds.wake();
    }
  }
}
