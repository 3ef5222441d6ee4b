import type { EvidenceDeskBridge } from '../../../preload/bridge';
import { ask, bridge } from '../bridge';

/** Watched folders' calls: each answers or throws a BridgeError that the folder list says. */
export const chooseFolderToWatch = () => ask(bridge().chooseFolderToWatch({}));
/** A folder the person chooses, searched for documents whose records are to be renewed to SHA-512. */
export const findDocumentsToRenew = () => ask(bridge().findDocumentsToRenew({}));
export const addWatchedFolder = (input: Parameters<EvidenceDeskBridge['addWatchedFolder']>[0]) =>
  ask(bridge().addWatchedFolder(input));
export const pauseWatchedFolder = (id: number, paused: boolean) =>
  ask(bridge().setWatchedFolderPaused({ id, paused }));
export const stopWatchingFolder = (id: number) => ask(bridge().removeWatchedFolder({ id }));
