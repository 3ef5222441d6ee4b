/** How often things are looked at; tests shorten them. */
export interface WatchTiming {
  /** How often files waiting in the gate are looked at again. */
  lookMs: number;
  /** How often the folder itself is checked (there, readable, the same folder) and the list re-read. */
  healthMs: number;
}

export const DEFAULT_WATCH_TIMING: WatchTiming = { lookMs: 500, healthMs: 5_000 };
