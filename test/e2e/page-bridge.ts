// Runs inside the page under test: builds window.evidenceDesk with the SAME factory the preload
// uses, over a transport of functions the harness exposes (standing in for ipcRenderer), and a
// name→path table standing in for Electron's webUtils.getPathForFile (Electron-only API).
import { createBridge } from '../../preload/bridge';
import type { CallName, EventName } from '../../preload/channels';
import type { CallResult } from '../../protocol/errors';

interface HarnessWindow {
  __edInvoke(name: CallName, input: unknown): Promise<CallResult<unknown>>;
  __edPaths: Record<string, string>;
  __edEmit(event: EventName, payload: unknown): void;
}

const page = window as unknown as HarnessWindow & Window;
const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
page.__edPaths = page.__edPaths ?? {};
page.__edEmit = (event, payload) => listeners.get(event)?.forEach((listener) => listener(payload));
window.evidenceDesk = createBridge({
  invoke: (name, input) => page.__edInvoke(name, input),
  subscribe: (event, listener) => {
    if (!listeners.has(event)) listeners.set(event, new Set());
    listeners.get(event)?.add(listener);
    return () => listeners.get(event)?.delete(listener);
  },
  pathForFile: (file) => page.__edPaths[file.name] ?? '',
});
