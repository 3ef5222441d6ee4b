/**
 * Every error code the core reports to a shell, as a closed union: the renderer and automation
 * can switch on them, and a new code is a compile-time decision, not a string someone invented.
 */
/** What can be wrong with one dropped path; each fails alone, with its reason. */
export const FILE_PROBLEM_CODES = [
  'not_found',
  'permission_denied',
  'folder_loop',
  'not_regular_file',
  'unreadable',
  'changed_while_hashing',
] as const;

export const ERROR_CODES = [
  ...FILE_PROBLEM_CODES,
  // Input from a person or a program.
  'invalid_input',
  'invalid_metadata',
  'invalid_profile',
  'unknown_call',
  'forbidden',
  // Things that are not allowed now.
  'not_removable',
  'illegal_transition',
  'unknown_profile',
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
  // Evidence leaving the machine.
  'verifier_missing',
  'export_failed',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** How every call across the bridge answers: a value, or an error with a code and a sentence for people. */
export type CallResult<T> =
  { ok: true; value: T } | { ok: false; error: { code: ErrorCode; message: string } };
