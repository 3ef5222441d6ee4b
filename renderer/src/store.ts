import { useSyncExternalStore } from 'react';
import { bridge, call } from './bridge';
import type { ConnectivityStatus, CoreStatus, IntakeProgress } from './types';

export interface ViewState {
  status: CoreStatus | null;
  connectivity: ConnectivityStatus | null;
  progress: Extract<IntakeProgress, { kind: 'batch' }> | null;
  fileProgress: Extract<IntakeProgress, { kind: 'file' }> | null;
  /** Bumped whenever rows change, so the list refetches what is on screen. */
  rowsVersion: number;
}

type Listener = () => void;

/** One store, fed by bridge events; components read slices of it. */
class Store {
  private state: ViewState = {
    status: null,
    connectivity: null,
    progress: null,
    fileProgress: null,
    rowsVersion: 0,
  };
  private readonly listeners = new Set<Listener>();
  private statusTimer: ReturnType<typeof setTimeout> | undefined;

  start(): () => void {
    const offs = [
      bridge().onRow(() => {
        this.set({ rowsVersion: this.state.rowsVersion + 1 });
        this.refreshStatusSoon();
      }),
      bridge().onConnectivity((status) => this.set({ connectivity: status as ConnectivityStatus })),
      bridge().onProgress((progress) => {
        const event = progress as IntakeProgress;
        if (event.kind === 'batch') this.set({ progress: event });
        else this.set({ fileProgress: event });
      }),
    ];
    void this.refreshStatus();
    return () => offs.forEach((off) => off());
  }

  get = () => this.state;

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  async refreshStatus(): Promise<void> {
    const status = await call<CoreStatus>(bridge().status({}));
    this.set({ status, connectivity: status.connectivity });
  }

  refreshRows(): void {
    this.set({ rowsVersion: this.state.rowsVersion + 1 });
  }

  private refreshStatusSoon(): void {
    // Many rows change at once while a batch syncs: one status read per moment is enough.
    this.statusTimer ??= setTimeout(() => {
      this.statusTimer = undefined;
      void this.refreshStatus();
    }, 150);
  }

  private set(change: Partial<ViewState>): void {
    this.state = { ...this.state, ...change };
    this.listeners.forEach((listener) => listener());
  }
}

export const store = new Store();

export function useView<T>(select: (state: ViewState) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}
