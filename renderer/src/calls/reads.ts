import type { EvidenceDeskBridge } from '../../../preload/bridge';
import { ask, bridge } from '../bridge';

/**
 * What the screens read from main. Each answers the value or throws a BridgeError in the reader's
 * words; the queries that call these show it where the value would have been.
 */
export const readSettings = () => ask(bridge().settings({}));
export const readMatters = () => ask(bridge().matters({}));
export const readStatus = () => ask(bridge().status({}));
export const readDetails = (id: number) => ask(bridge().details({ id }));
export const readList = (query: Parameters<EvidenceDeskBridge['list']>[0]) => ask(bridge().list(query));
export const readWatchedFolders = () => ask(bridge().watchedFolders({}));
