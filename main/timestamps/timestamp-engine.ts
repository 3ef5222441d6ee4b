import { hexToBytes } from '../../verifier/bytes';
import type { Logger } from '../logging/logger';
import type { Fetch } from '../service/network';
import type { CertificateStatusStore, KitSeal, KitSeals, TimestampBatch, TimestampBatches } from '../store';
import type { DocumentTimestamper } from '../tools/pdf/seal';
import { Rounds } from '../tools/rounds';
import type { Authority } from '../service/ask-authority';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import { AuthorityPace } from './authority-pace';
import { hostOf } from '../service/authority-host';
import { validateBatch } from './batch-validation';
import type { RecordRenewal } from './record-renewal';

export interface TimestampPacing {
  /** How long one request may wait for the authority. */
  timeoutMs: number;
  /** Retries start here and double up to `capMs`. */
  firstRetryMs: number;
  capMs: number;
  /** Rows a crash left without a batch are gathered once they are this old. */
  strayAfterMs: number;
  /** How long a command that has done its own work waits for its batch's answer (`certify --wait`). */
  answerWaitMs?: number;
  /** How long closing waits for an answer under way before it ends the request (and asks again next run). */
  closeGraceMs?: number;
}

export const DEFAULT_TIMESTAMP_PACING: TimestampPacing = {
  timeoutMs: 30_000,
  firstRetryMs: 10_000,
  capMs: 60 * 60_000,
  strayAfterMs: 60_000,
  answerWaitMs: 5_000,
  closeGraceMs: 2_000,
};

export interface TimestampEngineOptions {
  batches: TimestampBatches;
  /** Issuers' answers about the authorities' certificates, kept while they hold. */
  statuses: CertificateStatusStore;
  /** The authority a profile names (with its trust), or null when it names none. */
  authorityFor(profileId: string): Promise<Authority | null>;
  fetchFor(profileId: string): Fetch;
  activeProfile(): string;
  log: Logger;
  pacing?: TimestampPacing;
  /** Shared with everything else that asks authorities in this process (seals of exports). */
  pace?: AuthorityPace;
  now?: () => number;
  /** Kits saved while their authority could not seal them: asked again here, like batches. */
  kitSeals?: WaitingKitSeals;
  /** Evidence records due for renewal become a request here, looked for once a period. */
  renewal?: RecordRenewal;
}

/** The kits whose seal waits, and how a seal that came is added to its kit (evidence/kit-seal-completion.ts). */
export interface WaitingKitSeals {
  store: KitSeals;
  complete(
    seal: KitSeal,
    timestamper: DocumentTimestamper,
  ): Promise<{ sealed: true } | { sealed: false; problem: Said; final: boolean }>;
}

// Answers that say the authority answered nothing: no request to it is likely to fare better soon.
const UNANSWERED = new Set(['timestamp.timeout', 'timestamp.unreachable']);

// A round waits this long at most for an authority's pace; a longer wait (a Retry-After) is planned instead.
const PACE_WAIT_IN_ROUND_MS = 60_000;

/**
 * Independent time, offline first: asks each waiting batch's authority for a token, keeps a token
 * only when every check holds, and otherwise keeps the request with the reason and asks again
 * later. It never touches a certification's state: a failing authority delays nothing else.
 */
export class TimestampEngine {
  private readonly pacing: TimestampPacing;
  private readonly now: () => number;
  private readonly rounds: Rounds;
  private readonly pace: AuthorityPace;
  /**
   * Authorities whose last request got no answer (timed out, unreachable), until when: the other
   * batches waiting for one are not each asked in turn, one timeout after another (one request at a
   * time made a silent authority hold a new batch behind every retry), but wait with the same reason.
   */
  private readonly unanswering = new Map<string, { until: number; problem: Said }>();
  /** The requests under way, each ended early if closing cannot wait for it. */
  private readonly asking = new Set<AbortController>();

  constructor(private readonly options: TimestampEngineOptions) {
    this.pacing = options.pacing ?? DEFAULT_TIMESTAMP_PACING;
    this.now = options.now ?? Date.now;
    this.pace = options.pace ?? new AuthorityPace(this.now);
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

  /**
   * Stops asking. A request under way gets a short grace: a token that arrives within it is kept;
   * after it the request ends, stays "asked, no answer yet", and is asked again by whoever runs next.
   */
  async stop(): Promise<void> {
    const grace = setTimeout(
      () => this.asking.forEach((request) => request.abort()),
      this.pacing.closeGraceMs ?? 0,
    );
    try {
      await this.rounds.stop();
    } finally {
      clearTimeout(grace);
    }
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
   * or after a short, stated bound (answerWaitMs): a command that waits for its batch's time
   * (`certify --wait`) keeps a token that comes quickly, and never waits long for a slow authority.
   */
  async answered(): Promise<void> {
    const until = Date.now() + Math.min(this.pacing.answerWaitMs ?? 0, this.pacing.timeoutMs);
    const open = () =>
      this.asking.size > 0 ||
      (this.options.kitSeals?.store.due(this.now(), 1).length ?? 0) > 0 ||
      this.options.batches.due(this.now(), 1).length > 0 ||
      this.options.batches.validationDue(this.now(), 1).length > 0;
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
    for (
      let due = batches.validationDue(this.now());
      due.length && this.rounds.isRunning;
      due = batches.validationDue(this.now())
    )
      for (const batch of due)
        await this.underway((stop) =>
          validateBatch(batch, stop, {
            ...this.options,
            timeoutMs: this.pacing.timeoutMs,
            retryAt: (attempts) => this.retryAt(attempts),
            now: this.now,
          }),
        );
    for (const seal of this.options.kitSeals?.store.due(this.now()) ?? []) {
      if (!this.rounds.isRunning) break;
      await this.underway(() => this.completeSeal(seal, this.options.kitSeals as WaitingKitSeals));
    }
    // Records are looked at last (a renewal is months ahead of need): judging each newest token's
    // strength loads pkijs, which must not delay a batch's token that a command waits for. A
    // renewal opened here is asked in the next round, at once.
    if (this.rounds.isRunning && (await this.options.renewal?.look())?.opened.length) this.wake();
  }

  /** A kit's seal asked for again; added to the kit when it comes, else kept waiting with the reason. */
  private async completeSeal(seal: KitSeal, seals: WaitingKitSeals): Promise<void> {
    const authority = await this.options.authorityFor(seal.profileId);
    if (!authority || authority.url !== seal.tsaUrl) {
      seals.store.defer(seal.id, said('timestamp.noLongerSet'), this.retryAt(seal.attempts), this.now());
      return;
    }
    const { documentTimestamper } = await import('./document-timestamper');
    const timestamper = documentTimestamper(
      this.options.fetchFor(seal.profileId),
      authority,
      this.pacing.timeoutMs,
      this.pace,
      this.options.statuses,
    );
    const outcome = await seals.complete(seal, timestamper).catch((error: unknown) => ({
      sealed: false as const,
      problem: said('exports.sealWaiting.refused', {
        why: error instanceof Error ? error.message : String(error),
      }),
      final: false,
    }));
    if (outcome.sealed) {
      seals.store.sealed(seal.id, this.now());
      this.options.log.log('info', 'kit.sealed', { seal: seal.id });
    } else if (outcome.final) seals.store.giveUp(seal.id, outcome.problem, this.now());
    else seals.store.defer(seal.id, outcome.problem, this.retryAt(seal.attempts), this.now());
  }

  /** Rows a crash (or a profile given an authority later) left without a timestamp. */
  private async gatherStrays(): Promise<void> {
    const profileId = this.options.activeProfile();
    const authority = await this.options.authorityFor(profileId);
    if (authority)
      this.options.batches.open(profileId, authority.url, this.now() - this.pacing.strayAfterMs, this.now());
  }

  private ask(batch: TimestampBatch): Promise<void> {
    return this.underway((stop) => this.askOnce(batch, stop));
  }

  /** A request that closing may end early (after its grace). */
  private async underway(work: (stop: AbortSignal) => Promise<void>): Promise<void> {
    const request = new AbortController();
    this.asking.add(request);
    try {
      await work(request.signal);
    } finally {
      this.asking.delete(request);
    }
  }

  private async askOnce(batch: TimestampBatch, stop: AbortSignal): Promise<void> {
    const authority = await this.options.authorityFor(batch.profileId);
    const now = this.now();
    if (!authority || authority.url !== batch.tsaUrl) {
      // The profile now names another authority (or none): the request waits, said plainly.
      this.options.batches.defer(batch.id, said('timestamp.noLongerSet'), this.retryAt(batch.attempts), now);
      return;
    }
    // The token's checks (pkijs) load when an authority is first asked, not when a command starts.
    const { askAuthority } = await import('../service/ask-authority');
    const silent = this.silent(authority.url);
    if (silent) {
      this.options.batches.defer(batch.id, silent.problem, silent.until, now);
      return;
    }
    // One request at a time per authority, at its pace; a batch that would wait long is planned for then.
    const turn = await this.pace.turn(
      authority.url,
      authority.minIntervalMs,
      // Whoever waited in line behind a request that got no answer is not sent after it in turn.
      () =>
        this.silent(authority.url)
          ? Promise.resolve(null)
          : askAuthority(
              this.options.fetchFor(batch.profileId),
              authority,
              hexToBytes(batch.root),
              this.pacing.timeoutMs,
              stop,
              batch.tree === 'rfc4998' ? batch.hash : undefined,
            ),
      { waitAtMost: PACE_WAIT_IN_ROUND_MS, stop },
    );
    // Closing before its turn came: never asked, so it stays due as it was, for whoever runs next.
    if ('stopped' in turn) return;
    if ('tooLong' in turn) {
      this.options.batches.postpone(batch.id, turn.tooLong, this.now());
      return;
    }
    const { answer } = turn;
    // Counted from the answer, not from joining the line: a batch that waited its turn longer than
    // its retry interval would otherwise mark a silent authority silent until a time already past,
    // and every batch behind it would be asked in turn, one timeout after another.
    const retryAt = this.retryAt(batch.attempts);
    const silentNow = this.silent(authority.url);
    if (answer === null && silentNow) {
      this.options.batches.defer(batch.id, silentNow.problem, silentNow.until, this.now());
      return;
    }
    if (answer === null) return;
    if (!answer.ok && answer.retryAt !== undefined) this.pace.holdUntil(authority.url, answer.retryAt);
    if (answer.ok || !UNANSWERED.has(answer.problem.key)) this.unanswering.delete(authority.url);
    else this.unanswering.set(authority.url, { until: retryAt, problem: answer.problem });
    // A token that came is kept, closing or not. A request ended by closing is recorded as asked with
    // no answer yet, and is due at once for whoever runs next (the app, sync, watch).
    if (!answer.ok && stop.aborted) {
      this.options.batches.defer(
        batch.id,
        said('timestamp.askedNoAnswer', { host: hostOf(authority.url) }),
        this.now(),
        this.now(),
      );
      return;
    }
    if (answer.ok) {
      this.options.batches.confirm(batch.id, answer, this.now());
      this.options.log.log('info', 'timestamp.confirmed', {
        batch: batch.id,
        size: batch.size,
        authority: answer.authority,
      });
    } else {
      this.options.batches.defer(
        batch.id,
        answer.problem,
        Math.max(retryAt, answer.retryAt ?? 0),
        this.now(),
      );
      this.options.log.log('warn', 'timestamp.not_yet', { batch: batch.id, problem: answer.problem.key });
    }
  }

  /** When a request (or a collection) that failed `attempts` times is tried again: doubling, up to the cap. */
  private retryAt(attempts: number): number {
    return this.now() + Math.min(this.pacing.capMs, this.pacing.firstRetryMs * 2 ** Math.min(attempts, 20));
  }

  /** The authority's last request got no answer, and it is not to be asked again yet. */
  private silent(url: string): { until: number; problem: Said } | null {
    const silent = this.unanswering.get(url);
    return silent && silent.until > this.now() ? silent : null;
  }

  /** The next waiting request, or the next look for strays, whichever comes first. */
  private nextRoundAt(): number {
    const due = [this.options.batches.nextDueAt(), this.options.kitSeals?.store.nextDueAt() ?? null];
    return Math.min(this.now() + this.pacing.strayAfterMs, ...due.filter((at) => at !== null));
  }
}
