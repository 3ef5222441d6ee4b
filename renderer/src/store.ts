import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { ConnectivityStatus, CoreStatus, IntakeProgress, QueueChanges } from '../../protocol/views';
import { bridge } from './bridge';

/** Query keys: everything read from the queue starts with `queue`, so one change refreshes it all. */
export const keys = {
  queue: ['queue'] as const,
  status: ['queue', 'status'] as const,
  list: (filter: string, page: number) => ['queue', 'list', filter, page] as const,
  matters: ['queue', 'matters'] as const,
  details: (id: number) => ['queue', 'details', id] as const,
  settings: ['settings'] as const,
};

/** What arrives as events rather than answers: connection state and intake progress. */
export interface LiveState {
  connectivity: ConnectivityStatus | null;
  progress: Extract<IntakeProgress, { kind: 'batch' }> | null;
  fileProgress: Extract<IntakeProgress, { kind: 'file' }> | null;
}

let live: LiveState = { connectivity: null, progress: null, fileProgress: null };
const listeners = new Set<() => void>();
const setLive = (change: Partial<LiveState>) => {
  live = { ...live, ...change };
  listeners.forEach((listener) => listener());
};

export function useLive<T>(select: (state: LiveState) => T): T {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => select(live),
  );
}

// Many rows change at once while a batch syncs: screens look again at most this often.
const REFRESH_EVERY_MS = 250;

/**
 * Feeds the screens from the bridge's events. The change stream is the only trigger for
 * re-reading the queue: its counts go straight into the status, and every query about the queue
 * (the list pages on screen, an open details panel) is refreshed at most every 250 ms; the status
 * too once evidence was checked. A profile switch also refreshes the settings and the profile shown.
 */
export function connectLiveUpdates(queryClient: QueryClient): () => void {
  let refresh: ReturnType<typeof setTimeout> | undefined;
  // Checking anchored evidence is what discovers a changed log key: the status is read again then.
  let statusStale = false;
  const onChanges = (changes: QueueChanges) => {
    statusStale ||= changes.external || changes.changed.some((change) => change.state === 'anchored');
    queryClient.setQueryData<CoreStatus>(
      keys.status,
      (status) => status && { ...status, counts: changes.counts },
    );
    if (changes.profileSwitched) {
      void queryClient.invalidateQueries({ queryKey: keys.settings });
      void queryClient.invalidateQueries({ queryKey: keys.status });
    }
    refresh ??= setTimeout(() => {
      refresh = undefined;
      void queryClient.invalidateQueries({
        queryKey: keys.queue,
        predicate: (q) => q.queryKey[1] !== 'status' || statusStale,
      });
      statusStale = false;
    }, REFRESH_EVERY_MS);
  };
  const offs = [
    bridge().onChanges(onChanges),
    bridge().onConnectivity((connectivity) => setLive({ connectivity })),
    bridge().onProgress((progress) =>
      progress.kind === 'batch' ? setLive({ progress }) : setLive({ fileProgress: progress }),
    ),
  ];
  return () => {
    clearTimeout(refresh);
    offs.forEach((off) => off());
  };
}
