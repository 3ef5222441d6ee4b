import type { Look } from '../store';

/**
 * Holds files until they have stopped changing: a file is ready once its size and modification
 * time have stayed the same for `settleMs`. Any change (a copy still running, a scanner writing
 * page by page, a download) starts its clock again. Pure: the caller looks at the files and says
 * what it saw, and when.
 */
export class StabilityGate {
  private readonly waiting = new Map<string, Look & { since: number }>();

  constructor(public settleMs: number) {}

  /** What a look at `path` saw; null when it is gone (it is forgotten). */
  observe(path: string, look: Look | null, now: number): void {
    if (!look) {
      this.waiting.delete(path);
      return;
    }
    const before = this.waiting.get(path);
    if (before && before.size === look.size && before.mtimeMs === look.mtimeMs) return;
    this.waiting.set(path, { ...look, since: now });
  }

  /** The files waiting, to be looked at again. */
  get paths(): string[] {
    return [...this.waiting.keys()];
  }

  get size(): number {
    return this.waiting.size;
  }

  /** The files unchanged for settleMs, taken out of the gate with what was last seen of them. */
  takeReady(now: number): { path: string; look: Look }[] {
    const ready: { path: string; look: Look }[] = [];
    for (const [path, { size, mtimeMs, since }] of this.waiting)
      if (now - since >= this.settleMs) {
        ready.push({ path, look: { size, mtimeMs } });
        this.waiting.delete(path);
      }
    return ready;
  }

  forget(path: string): void {
    this.waiting.delete(path);
  }
}
