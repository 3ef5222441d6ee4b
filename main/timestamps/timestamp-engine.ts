import { hexToBytes } from '../../verifier/bytes';
import type { Logger } from '../logging/logger';
import type { Fetch } from '../service/network';
import type { TimestampBatch, TimestampBatches } from '../store';
import { Rounds } from '../tools/rounds';
import type { Authority } from '../service/ask-authority';
import { said } from '../../protocol/said';

export interface TimestampPacing {
  /** How long one request may wait for the authority. */
  timeoutMs: number;
  /** Retries start here and double up to `capMs`. */
  firstRetryMs: number;
  capMs: number;
  /** Rows a crash left without a batch are gathered once they are this old. */
  strayAfterMs: number;
}

export const DEFAULT_TIMESTAMP_PACING: TimestampPacing = {
  timeoutMs: 30_000,
  firstRetryMs: 10_000,
  capMs: 60 * 60_000,
  strayAfterMs: 60_000,
};

export interface TimestampEngineOptions {
  batches: TimestampBatches;
  /** The authority a profile names (with its trust), or null when it names none. */
  authorityFor(profileId: string): Promise<Authority | null>;
  fetchFor(profileId: string): Fetch;
  activeProfile(): string;
  log: Logger;
  pacing?: TimestampPacing;
  now?: () => number;
}

/**
 * Independent time, offline first: asks each waiting batch's authority for a token, keeps a token
 * only when every check holds, and otherwise keeps the request with the reason and asks again
 * later. It never touches a certification's state: a failing authority delays nothing else.
 */
export class TimestampEngine {
  private readonly pacing: TimestampPacing;
  private readonly now: () => number;
  private readonly rounds: Rounds;
  private asking = 0;

  constructor(private readonly options: TimestampEngineOptions) {
    this.pacing = options.pacing ?? DEFAULT_TIMESTAMP_PACING;
    this.now = options.now ?? Date.now;
    this.rounds = new Rounds(
      () => this.round(),
      () => this.nextRoundAt(),
      (error) => options.log.log('error', 'timestamp.round_failed', { error: error.message }),
      this.now,
    );
  }

  start(): void {
    this.rounds.start();
  }

  async stop(): Promise<void> {
    await this.rounds.stop();
  }

  wake(): void {
    this.rounds.wake();
  }

  /**
   * A batch of files was queued: put every row without a timestamp under one root now (a drop of
   * 10,000 files is one request), then ask. Without an authority nothing is written.
   */
  async sealBatch(profileId: string): Promise<void> {
    const authority = await this.options.authorityFor(profileId);
    if (!authority) return;
    this.options.batches.open(profileId, authority.url, this.now(), this.now());
    this.wake();
  }

  /**
   * Resolves once every request due now has its answer (a token kept, or deferred with its reason),
   * or once one ask's timeout has passed: a command that waits for its batch's time (`certify
   * --wait`) does not close while the authority is still answering, and the token is not lost.
   */
  async answered(): Promise<void> {
    const until = Date.now() + this.pacing.timeoutMs + 1_000;
    const open = () => this.asking > 0 || this.options.batches.due(this.now(), 1).length > 0;
    while (this.rounds.isRunning && open() && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }

  private async round(): Promise<void> {
    await this.gatherStrays();
    const { batches } = this.options;
    for (
      let due = batches.due(this.now());
      due.length && this.rounds.isRunning;
      due = batches.due(this.now())
    )
      await Promise.all(due.map((batch) => this.ask(batch)));
  }

  /** Rows a crash (or a profile given an authority later) left without a timestamp. */
  private async gatherStrays(): Promise<void> {
    const profileId = this.options.activeProfile();
    const authority = await this.options.authorityFor(profileId);
    if (authority)
      this.options.batches.open(profileId, authority.url, this.now() - this.pacing.strayAfterMs, this.now());
  }

  private async ask(batch: TimestampBatch): Promise<void> {
    this.asking++;
    try {
      await this.askOnce(batch);
    } finally {
      this.asking--;
    }
  }

  private async askOnce(batch: TimestampBatch): Promise<void> {
    const authority = await this.options.authorityFor(batch.profileId);
    const now = this.now();
    const retryAt =
      now + Math.min(this.pacing.capMs, this.pacing.firstRetryMs * 2 ** Math.min(batch.attempts, 20));
    if (!authority || authority.url !== batch.tsaUrl) {
      // The profile now names another authority (or none): the request waits, said plainly.
      this.options.batches.defer(batch.id, said('timestamp.noLongerSet'), retryAt, now);
      return;
    }
    // The token's checks (pkijs) load when an authority is first asked, not when a command starts.
    const { askAuthority } = await import('../service/ask-authority');
    const answer = await askAuthority(
      this.options.fetchFor(batch.profileId),
      authority,
      hexToBytes(batch.root),
      this.pacing.timeoutMs,
    );
    if (!this.rounds.isRunning) return;
    if (answer.ok) {
      this.options.batches.confirm(batch.id, answer, this.now());
      this.options.log.log('info', 'timestamp.confirmed', {
        batch: batch.id,
        size: batch.size,
        authority: answer.authority,
      });
    } else {
      this.options.batches.defer(batch.id, answer.problem, retryAt, this.now());
      this.options.log.log('warn', 'timestamp.not_yet', { batch: batch.id, problem: answer.problem.key });
    }
  }

  /** The next waiting request, or the next look for strays, whichever comes first. */
  private nextRoundAt(): number {
    const due = this.options.batches.nextDueAt();
    const strays = this.now() + this.pacing.strayAfterMs;
    return due === null ? strays : Math.min(due, strays);
  }
}
