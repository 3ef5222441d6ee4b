import type { Said } from './said';

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
  'outside_folder',
  'too_deep',
] as const;

/**
 * How a call to the service, or a certification at the service, can fail. The service's own code
 * and status travel beside ours; they are its words, not a list we could close.
 */
export const SERVICE_FAILURE_CODES = [
  'auth_failed',
  'unreachable',
  'timeout',
  'withdrawn',
  'unreadable_response',
  'redirected',
  'request_failed',
  'service_error',
  'service_lost',
  'service_failed',
  'unknown_service_state',
] as const;
export type ServiceFailureCode = (typeof SERVICE_FAILURE_CODES)[number];

export const ERROR_CODES = [
  ...FILE_PROBLEM_CODES,
  ...SERVICE_FAILURE_CODES,
  // Input from a person or a program.
  'invalid_input',
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
  // Evidence leaving the machine.
  'verifier_missing',
  'invalid_reference',
  'export_failed',
  'not_sealed',
  // The person stopped it.
  'cancelled',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * How every call across the bridge answers: a value, or an error with a code, what to tell people
 * (worded in their language by the shell) and its English, for logs.
 */
export type CallResult<T> =
  { ok: true; value: T } | { ok: false; error: { code: ErrorCode; message: string; said?: Said } };
