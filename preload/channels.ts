/**
 * The names that cross IPC, as plain constants: the preload needs these and nothing heavier.
 * Their schemas and result types live beside them in contract.ts, which TypeScript holds to this list.
 */
export const CALL_NAMES = [
  'certify',
  'list',
  'details',
  'retry',
  'remove',
  'removeChosen',
  'tryNow',
  'setSendingPaused',
  'status',
  'verifyDocument',
  'exportEvidence',
  'exportRegister',
  'saveCertificate',
  'showSaved',
  'dragOut',
  'cancelExport',
  'matters',
  'showInFolder',
  'acceptLogKey',
  'setPreferences',
  'settings',
  'saveProfile',
  'useProfile',
  'testConnection',
  'verifySet',
  'saveSetReport',
  'watchedFolders',
  'chooseFolderToWatch',
  'findDocumentsToRenew',
  'addWatchedFolder',
  'updateWatchedFolder',
  'removeWatchedFolder',
  'setWatchedFolderPaused',
] as const;
export type CallName = (typeof CALL_NAMES)[number];

export const EVENTS = [
  'changes',
  'connectivity',
  'progress',
  'command',
  'setProgress',
  'watchedFolders',
  'kitProgress',
] as const;
export type EventName = (typeof EVENTS)[number];

export const channelOf = (name: CallName) => `evidence-desk:${name}`;
export const eventChannelOf = (name: EventName) => `evidence-desk:event:${name}`;
