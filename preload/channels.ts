/**
 * The names that cross IPC, as plain constants: the preload needs these and nothing heavier.
 * Their input schemas live beside them in contract.ts, which TypeScript holds to this list.
 */
export const CALL_NAMES = [
  'certify',
  'list',
  'details',
  'retry',
  'remove',
  'tryNow',
  'status',
  'verifyFile',
  'settings',
  'saveProfile',
  'useProfile',
  'testConnection',
] as const;
export type CallName = (typeof CALL_NAMES)[number];

export const EVENTS = ['row', 'connectivity', 'progress', 'command'] as const;
export type EventName = (typeof EVENTS)[number];

/** How every call answers: a value, or an error with a code and a sentence for people. */
export type CallResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/** What the menus, the dock and a second launch ask the window to do. */
export type ShellCommand =
  { kind: 'add-paths'; paths: string[] } | { kind: 'verify-path'; path: string } | { kind: 'open-settings' };

export const channelOf = (name: CallName) => `evidence-desk:${name}`;
export const eventChannelOf = (name: EventName) => `evidence-desk:event:${name}`;
