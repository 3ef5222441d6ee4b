/**
 * Every error code the core reports to a shell, as a closed union: the renderer and automation
 * can switch on them, and a new code is a compile-time decision, not a string someone invented.
 */
export const ERROR_CODES = [
  // Input from a person or a program.
  'invalid_input',
  'invalid_metadata',
  'invalid_profile',
  'unknown_call',
  'forbidden',
  // Things that are not there, or not allowed now.
  'not_found',
  'not_removable',
  'unknown_profile',
  // A dropped path that cannot be certified (each fails alone).
  'not_regular_file',
  'permission_denied',
  'folder_loop',
  'unreadable',
  'changed_while_hashing',
  // The queue file.
  'database_locked',
  'database_corrupt',
  'database_too_new',
  'database_unavailable',
  // The keychain and the service.
  'keychain_unavailable',
  'secret_missing',
  'sending_blocked',
  'timeout',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** How every call across the bridge answers: a value, or an error with a code and a sentence for people. */
export type CallResult<T> =
  { ok: true; value: T } | { ok: false; error: { code: ErrorCode; message: string } };
