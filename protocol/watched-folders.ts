import type { Said } from './said';

/** How a watched folder hears of new files: change events, polling (network shares), or decided from where it is. */
export type WatchMethod = 'auto' | 'events' | 'poll';

/** How a watched folder is doing, for the list, the tray and `watch list`. */
export type WatchStatus = 'starting' | 'catching_up' | 'watching' | 'paused' | 'unavailable';

/** What the person chose for a watched folder. */
export interface WatchedFolderChoices {
  path: string;
  matter: string | null;
  eventType: string;
  assetType: string;
  /** A glob of the files to certify (`*.pdf`); null for every file. */
  include: string | null;
  subfolders: boolean;
  /** Each anchored certification's receipt is written beside its file. */
  receiptsBeside: boolean;
  method: WatchMethod;
  /** How often a polled folder is listed. */
  pollSeconds: number;
  /** How long a file must stay unchanged before it is certified. */
  settleMs: number;
}

export interface WatchedFolderView extends WatchedFolderChoices {
  id: number;
  sourceSystem: string;
  paused: boolean;
  status: WatchStatus;
  /** Why it is not watching (missing, no permission…), or what last failed in it; said. */
  problem: Said | null;
  statusAt: number | null;
  /** Whether it is polled (a network share, or chosen) rather than told of changes. */
  polled: boolean;
  createdAt: number;
}

/**
 * What a folder starts with when nothing else is chosen: the app's form, `watch add` and the tests
 * alike. Network shares are found and polled ('auto'); a file waits 3 s unchanged.
 */
export const WATCH_DEFAULTS = {
  include: null,
  subfolders: true,
  receiptsBeside: false,
  method: 'auto',
  pollSeconds: 60,
  settleMs: 3_000,
} as const satisfies Omit<WatchedFolderChoices, 'path' | 'matter' | 'eventType' | 'assetType'>;
