/**
 * Work started a few at a time, as a kit writes its files and draws its certificates: `add` waits
 * while `atOnce` are running, and the first that fails fails every later `add` and `finish`, so
 * nothing of a kit goes missing unnoticed.
 */
export class BoundedWork {
  private readonly running = new Set<Promise<void>>();
  private failed: { error: unknown } | null = null;

  constructor(private readonly atOnce: number) {}

  /** Starts `work` once fewer than `atOnce` run; throws the first failure so far instead. */
  async add(work: () => Promise<unknown>): Promise<void> {
    this.raiseFailure();
    while (this.running.size >= this.atOnce) await Promise.race(this.running);
    this.raiseFailure();
    const running: Promise<void> = work().then(
      () => void this.running.delete(running),
      (error: unknown) => {
        this.failed ??= { error };
        this.running.delete(running);
      },
    );
    this.running.add(running);
  }

  /** Every piece of work has ended well; else the first failure is thrown. */
  async finish(): Promise<void> {
    await this.settled();
    this.raiseFailure();
  }

  /** Every piece of work started has ended, however it ended. */
  async settled(): Promise<void> {
    await Promise.all(this.running);
  }

  private raiseFailure(): void {
    if (this.failed) throw this.failed.error;
  }
}
