/**
 * The local life of a certification, written once. Every writer goes through `assertTransition`,
 * so a state change the table does not allow is a bug caught at the write, not a row gone astray.
 */
export const LOCAL_STATES = ['queued', 'submitting', 'pending', 'anchored', 'failed'] as const;
export type LocalState = (typeof LOCAL_STATES)[number];

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

export class IllegalTransition extends Error {
  constructor(
    readonly from: LocalState,
    readonly to: LocalState,
  ) {
    super(`A certification cannot go from ${from} to ${to}.`);
  }
}

export function canTransition(from: LocalState, to: LocalState): boolean {
  return ALLOWED[from].includes(to);
}

export function assertTransition(from: LocalState, to: LocalState): void {
  if (!canTransition(from, to)) throw new IllegalTransition(from, to);
}

/** The states a row may be in when removed: nothing has been sent for it, or it failed for good. */
export const REMOVABLE_STATES: readonly LocalState[] = ['queued', 'failed'];
