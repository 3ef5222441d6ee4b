import type { LocalState } from '../../protocol/states';
import type { QueueChanges } from '../../protocol/views';
import type { ChangeFeed } from '../store';

export interface RowWait {
  feed: ChangeFeed;
  ids: readonly number[];
  /** True once a row in this state needs no more waiting for. */
  isDone(state: LocalState): boolean;
  /** Of these ids, the ones not done yet, read from the table (one query, not one per row). */
  notDone(ids: readonly number[]): number[];
  timeoutMs: number;
  /** Stops waiting early (the service is cut off, the user pressed Ctrl-C…). */
  signal?: AbortSignal;
}

/**
 * Waits on the change stream until every row is done: each batch of changes is checked against
 * the rows still awaited, in time proportional to the batch, never by re-reading them all. A write
 * by another process (a standby `--wait` while the app sends) triggers one re-read of the rows
 * still awaited.
 */
export function waitForRows(wait: RowWait): Promise<'done' | 'timeout' | 'stopped'> {
  let open = new Set(wait.notDone(wait.ids));
  if (open.size === 0) return Promise.resolve('done');
  return new Promise((resolve) => {
    const finish = (outcome: 'done' | 'timeout' | 'stopped') => {
      clearTimeout(timer);
      unsubscribe();
      wait.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onChanges = (changes: QueueChanges) => {
      if (changes.external) open = new Set(wait.notDone([...open]));
      for (const { id, state } of changes.changed) if (wait.isDone(state)) open.delete(id);
      for (const id of changes.removed) open.delete(id);
      // The stream said done; the table has the last word.
      if (open.size === 0 && (open = new Set(wait.notDone(wait.ids))).size === 0) finish('done');
    };
    const onAbort = () => finish('stopped');
    const timer = setTimeout(() => finish('timeout'), wait.timeoutMs);
    const unsubscribe = wait.feed.subscribe(onChanges);
    wait.signal?.addEventListener('abort', onAbort);
    if (wait.signal?.aborted) finish('stopped');
  });
}
