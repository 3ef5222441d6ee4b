/**
 * The local life of a certification, written once. Every writer goes through the store's one
 * `transition`, which consults `canTransition`, so a state change this table does not allow is a
 * bug caught at the write, not a row gone astray. The rules people see ("waiting", "removable")
 * are derived here too, so the list, the badge, the CLI and the store never disagree.
 */
import type { Said } from './said';
import { said } from './said';

export const LOCAL_STATES = ['queued', 'submitting', 'pending', 'anchored', 'failed'] as const;
export type LocalState = (typeof LOCAL_STATES)[number];

/** A state in a sentence, in the reader's words; one not ours (a register's cell) as written. */
export const stateSaid = (state: string): Said =>
  (LOCAL_STATES as readonly string[]).includes(state)
    ? said(`state.${state as LocalState}`)
    : said('asWritten', { text: state });

export type StateCounts = Record<LocalState, number>;

const ALLOWED: Record<LocalState, readonly LocalState[]> = {
  // Hash known, row written, waiting for the service (or for the network).
  queued: ['submitting'],
  // A request is on the wire; a crash here resumes as queued with the same X-Request-Id.
  submitting: ['queued', 'pending', 'failed'],
  // Accepted by the service; polled until it is anchored or fails.
  pending: ['anchored', 'failed'],
  anchored: [],
  // A person may send a failed certification again.
  failed: ['queued'],
};

export function canTransition(from: LocalState, to: LocalState): boolean {
  return ALLOWED[from].includes(to);
}

/** States still on their way: the badge, the "waiting" filter and `--wait` count these. */
export const WAITING_STATES: readonly LocalState[] = ['queued', 'submitting', 'pending'];

export const isWaiting = (state: LocalState): boolean => WAITING_STATES.includes(state);

/** Anchored or failed for good: nothing more happens without a person. */
export const isSettled = (state: LocalState): boolean => !isWaiting(state);

/** Not yet handed to the service (queued, or a lost connection sent it back to the queue). */
export const isUnsent = (state: LocalState): boolean => state === 'queued' || state === 'submitting';

export function waitingCount(counts: StateCounts): number {
  return WAITING_STATES.reduce((sum, state) => sum + counts[state], 0);
}

export function emptyCounts(): StateCounts {
  return { queued: 0, submitting: 0, pending: 0, anchored: 0, failed: 0 };
}

/**
 * A certification may be removed when nothing of it ever reached the service (queued, never
 * accepted), or when it failed for good. Anything the service holds stays on record.
 */
export function isRemovable(row: { state: LocalState; serviceId: string | null }): boolean {
  return row.state === 'failed' || (row.state === 'queued' && row.serviceId === null);
}
