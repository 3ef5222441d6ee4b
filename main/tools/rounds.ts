/**
 * One background loop, one round at a time: `wake` runs a round now (or right after the one
 * running), and when a round ends the next is planned for the time `nextAt` names. A round that
 * throws is reported and the loop goes on. Both engines (sending, timestamps) run on this.
 */
export class Rounds {
  private timer: NodeJS.Timeout | undefined;
  private active = false;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly round: () => Promise<void>,
    /** When the next round is due (ms since the epoch), or null for "only when woken". */
    private readonly nextAt: () => number | null,
    private readonly onError: (error: Error) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get isRunning(): boolean {
    return this.active;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.wake();
  }

  /** Stops planning rounds and waits for the one under way. */
  async stop(): Promise<void> {
    this.active = false;
    clearTimeout(this.timer);
    await this.running;
  }

  wake(): void {
    if (!this.active) return;
    clearTimeout(this.timer);
    if (this.running) {
      this.again = true;
      return;
    }
    this.again = false;
    this.running = this.round()
      .catch((error: unknown) => {
        this.again = false;
        this.onError(error as Error);
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) this.wake();
        else this.plan();
      });
  }

  /** Whether something asked for another round while this one ran. */
  get wokenSince(): boolean {
    return this.again;
  }

  private plan(): void {
    if (!this.active) return;
    let due: number | null;
    try {
      due = this.nextAt();
    } catch (error) {
      this.onError(error as Error);
      due = this.now() + 5_000;
    }
    if (due === null) return;
    this.timer = setTimeout(() => this.wake(), Math.max(0, due - this.now()));
  }
}
