import type { CallResult } from '../protocol/errors';
import type { CallName, EventName } from './channels';
import { CALL_NAMES, EVENTS } from './channels';
import type { CallInput, CallResults, EventPayloads } from './contract';

/** What the preload (or a test harness) provides: a way to call main and to hear its events. */
export interface BridgeTransport {
  invoke(name: CallName, input: unknown): Promise<CallResult<unknown>>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
  /** The absolute path of a dropped File (Electron's webUtils.getPathForFile). */
  pathForFile(file: File): string;
}

type Calls = { [N in CallName]: (input: CallInput<N>) => Promise<CallResult<CallResults[N]>> };
type Subscriptions = {
  [E in EventName as `on${Capitalize<E>}`]: (listener: (payload: EventPayloads[E]) => void) => () => void;
};

/** `window.evidenceDesk`: named functions, one per contract entry; every `on…` returns its unsubscribe. */
export type EvidenceDeskBridge = Calls & Subscriptions & { pathForFile(file: File): string };

/**
 * Builds the bridge from the contract's names; it holds no logic the renderer could bend. The
 * types are the contract's: main answers exactly these shapes, checked where its handlers are written.
 */
export function createBridge(transport: BridgeTransport): EvidenceDeskBridge {
  const calls = Object.fromEntries(
    CALL_NAMES.map((name) => [name, (input: unknown) => transport.invoke(name, input)]),
  );
  const subscriptions = Object.fromEntries(
    EVENTS.map((event) => [
      `on${event[0]?.toUpperCase()}${event.slice(1)}`,
      (listener: (payload: unknown) => void) => transport.subscribe(event, listener),
    ]),
  );
  return Object.freeze({
    ...calls,
    ...subscriptions,
    pathForFile: (file: File) => transport.pathForFile(file),
  }) as EvidenceDeskBridge;
}
