import type { ConnectivityStatus, Sender } from '../../protocol/views';
import type { Pacing } from '../service/retry-policy';
import { backoffDelay } from '../service/retry-policy';
import type { ServiceAnswer } from '../service/service-client';
import { said } from '../../protocol/said';

// Requests in a row that got no answer at all before the service counts as unreachable.
const UNANSWERED_BEFORE_OFFLINE = 3;

/**
 * Whether the service can be used right now, learnt from the answers themselves: `offline`
 * after several requests in a row got no answer at all, `auth_failed` when the credentials are
 * refused, `standby` while another process sends this queue. While cut off, probes are planned
 * at growing intervals; the first answer ends the outage.
 */
export class ConnectivityTracker {
  private current: ConnectivityStatus = { state: 'unknown', message: null, nextProbeAt: null };
  private offlineProbes = 0;
  private unansweredInARow = 0;

  constructor(
    private readonly pacing: Pacing,
    private readonly random: () => number,
    private readonly onChange: (status: ConnectivityStatus) => void,
  ) {}

  get status(): ConnectivityStatus {
    return this.current;
  }

  /** Sending goes on at full width only while the service answers (or has not been tried yet). */
  get reachable(): boolean {
    return this.current.state === 'online' || this.current.state === 'unknown';
  }

  /**
   * A call failed. Returns when the next probe is planned if the service is now cut off (every
   * waiting row joins that probe), or null if this failure is the row's own business.
   */
  noteFailure(result: Extract<ServiceAnswer<unknown>, { ok: false }>, now: number): number | null {
    if (result.offline) this.unansweredInARow++;
    const unreachable =
      result.offline &&
      (this.unansweredInARow >= UNANSWERED_BEFORE_OFFLINE || this.current.state === 'offline');
    if (!unreachable && result.code !== 'auth_failed') return null;
    const planned = this.current.nextProbeAt;
    // Requests that were already on the wire fail together: they join the planned probe, not push it back.
    const nextProbeAt =
      planned !== null && planned > now
        ? planned
        : now + Math.max(500, backoffDelay(this.offlineProbes++, this.pacing.offlineProbe, this.random));
    this.set({ state: result.offline ? 'offline' : 'auth_failed', message: result.said, nextProbeAt });
    return nextProbeAt;
  }

  /**
   * While cut off, nothing goes out before the planned probe: not even a row queued since, which
   * would otherwise be sent at once and become a probe of its own.
   */
  waitingForProbe(now: number): boolean {
    const { nextProbeAt } = this.current;
    return !this.reachable && this.current.state !== 'standby' && nextProbeAt !== null && nextProbeAt > now;
  }

  /** "Try now": the planned probe is due at once. */
  probeNow(now: number): void {
    if (this.waitingForProbe(now)) this.set({ ...this.current, nextProbeAt: now });
  }

  /** The service answered. True when this ends an outage, so the whole queue is due at once. */
  noteAnswer(): boolean {
    this.unansweredInARow = 0;
    if (this.current.state === 'online') return false;
    const wasCutOff = this.current.state === 'offline' || this.current.state === 'auth_failed';
    this.offlineProbes = 0;
    this.set({ state: 'online', message: null, nextProbeAt: null });
    return wasCutOff;
  }

  standBy(nextLookAt: number, sentBy: Sender): void {
    const message = said(sentBy === 'app' ? 'sync.standbyApp' : 'sync.standbyCommandLine');
    if (this.current.state !== 'standby' || this.current.sentBy !== sentBy)
      this.set({ state: 'standby', message, nextProbeAt: nextLookAt, sentBy });
  }

  leaveStandby(): void {
    if (this.current.state === 'standby') this.set({ state: 'unknown', message: null, nextProbeAt: null });
  }

  private set(status: ConnectivityStatus): void {
    this.current = status;
    this.onChange(status);
  }
}
