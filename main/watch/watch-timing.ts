/** How often things are looked at; tests shorten them. */
export interface WatchTiming {
  /** How often files waiting in the gate are looked at again. */
  lookMs: number;
  /** How often the folder itself is checked (there, readable, the same folder) and the list re-read. */
  healthMs: number;
  /**
   * How long after the folder was last listed it is listed again, once change events came and
   * were handled: the system can lose an event (see FolderWatcher), and a file must not wait for
   * the next start to be found.
   */
  relistMs: number;
}

export const DEFAULT_WATCH_TIMING: WatchTiming = { lookMs: 500, healthMs: 5_000, relistMs: 60_000 };
