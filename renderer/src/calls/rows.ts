import { ask, bridge } from '../bridge';

/** One row sent again, removed, or shown in its folder, from its details; throws a BridgeError the details say. */
export const changeRow = (action: 'retry' | 'remove' | 'showInFolder', id: number) =>
  ask(bridge()[action]({ id }));
