import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type {
  AlreadyCertified,
  ConnectivityStatus,
  CoreStatus,
  IntakeProgress,
  KitProgress,
  ListSort,
  PathProblem,
  QueueChanges,
  RowView,
  WatchedFolderView,
} from '../../protocol/views';
import type { SetProgress } from '../../protocol/sets';
import i18next from 'i18next';
import { bridge, messageOf } from './bridge';
import { readWatchedFolders } from './calls/reads';

/** What the notice under the toolbar says: what just happened, and every file that could not be taken. */
export interface NoticeContent {
  text: string;
  problems: PathProblem[];
  /** Files whose content was certified before: named with when, and offered to certify again. */
  alreadyCertified?: AlreadyCertified[];
  certifyAgain?(): void;
  /** Goes by itself once nothing waits to be sent or anchored. */
  untilSettled?: boolean;
  /** Says that work has begun; a progress bar takes its place once there is one. */
  working?: boolean;
  /** What was just saved (a kit's folder, a register, a certificate): "Open folder" shows it. */
  openFolder?: string;
  /** The authority refused the seal: saving again unsealed is the person's choice. */
  saveUnsealed?(): void;
}

/** The status as the query keeps it: the connection is held once, in the store, fed by its events. */
export type StatusView = Omit<CoreStatus, 'connectivity'>;

/** Query keys: everything read from the queue starts with `queue`, so one change refreshes it all. */
export const keys = {
  queue: ['queue'] as const,
  status: ['queue', 'status'] as const,
  list: (filter: string, page: number) => ['queue', 'list', filter, page] as const,
  matters: ['queue', 'matters'] as const,
  details: (id: number) => ['queue', 'details', id] as const,
  settings: ['settings'] as const,
};

/**
 * The window's one store: what arrives as events (the connection, intake progress), and what the
 * screens share (the list's filter, search, matter, sort and chosen rows; the open dialogs; the
 * notice). Reads of the queue are TanStack Query's; everything else lives here, once.
 */
export interface DeskState {
  /** The connection as last announced; before the first announcement, as the first status said. */
  connectivity: ConnectivityStatus | null;
  progress: Extract<IntakeProgress, { kind: 'batch' }> | null;
  fileProgress: Extract<IntakeProgress, { kind: 'file' }> | null;
  /** Which of the list's filters is on (an index into FILTERS), and its search and matter. */
  filter: number;
  search: string;
  matter: string | undefined;
  sort: ListSort;
  /** Rows chosen with their checkboxes, for an action on them all. */
  selected: ReadonlyMap<number, RowView>;
  /** Everything the list shows is chosen (the header's box, Ctrl/Cmd+A), however many rows that is. */
  allShown: boolean;
  /** The question before the chosen certifications are removed is open. */
  confirmingRemoval: boolean;
  /** Paths waiting for the batch form (none: closed). */
  chosen: string[];
  /** The certification whose details are open. */
  openId: number | null;
  settingsOpen: boolean;
  /** The verify dialog, with what was dropped or chosen for it (null: closed). */
  verifying: string[] | null;
  notice: NoticeContent | null;
  /** The set dialog, with what was dropped on it (null: closed). */
  verifyingSet: string[] | null;
  /** While a set is read: files and bytes done. */
  setProgress: SetProgress | null;
  /** While a kit is saved: certificates made of all (null: no kit being saved). */
  kitProgress: KitProgress | null;
  /** The watched folders and how each is doing, as main last announced them (null: not read yet). */
  folders: WatchedFolderView[] | null;
}

const INITIAL: DeskState = {
  connectivity: null,
  progress: null,
  fileProgress: null,
  filter: 0,
  search: '',
  matter: undefined,
  sort: { column: 'added', direction: 'desc' },
  selected: new Map(),
  allShown: false,
  confirmingRemoval: false,
  chosen: [],
  openId: null,
  settingsOpen: false,
  verifying: null,
  notice: null,
  verifyingSet: null,
  setProgress: null,
  kitProgress: null,
  folders: null,
};

let state = INITIAL;
const listeners = new Set<() => void>();

export const desk = {
  get: (): DeskState => state,
  set(change: Partial<DeskState>): void {
    state = { ...state, ...change };
    listeners.forEach((listener) => listener());
  },
};

export function useDesk<T>(select: (state: DeskState) => T): T {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => select(state),
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
    queryClient.setQueryData<StatusView>(
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
    bridge().onConnectivity((connectivity) => desk.set({ connectivity })),
    bridge().onSetProgress((setProgress) => desk.set({ setProgress })),
    // The kit's bar says what "Saving the evidence…" said, and more: the notice gives it its place.
    bridge().onKitProgress((kitProgress) =>
      desk.set({ kitProgress, notice: desk.get().notice?.working ? null : desk.get().notice }),
    ),
    bridge().onWatchedFolders((folders) => desk.set({ folders })),
    bridge().onProgress((progress) =>
      progress.kind === 'batch' ? desk.set({ progress }) : desk.set({ fileProgress: progress }),
    ),
  ];
  // The first list fills the gap before the first announcement; an announcement always wins.
  void readWatchedFolders()
    .then((folders) => desk.get().folders ?? desk.set({ folders }))
    // Settings' folder list is empty until it is read: the notice says why.
    .catch((error: unknown) =>
      desk.set({
        notice: { text: i18next.t('watch.couldNotRead', { reason: messageOf(error) }), problems: [] },
      }),
    );
  return () => {
    clearTimeout(refresh);
    offs.forEach((off) => off());
  };
}
