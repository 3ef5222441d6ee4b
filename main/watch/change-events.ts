/** A subscription to a folder's change events, ended by `unsubscribe`. */
export type Subscription = { unsubscribe(): Promise<void> };

/** Tells `onEvents` of every change under `dir` (as @parcel/watcher's `subscribe` does) until unsubscribed. */
export type SubscribeToChanges = (
  dir: string,
  onEvents: (error: Error | null, events: { path: string; type: 'create' | 'update' | 'delete' }[]) => void,
) => Promise<Subscription>;
