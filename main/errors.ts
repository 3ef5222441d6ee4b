import type { ErrorCode } from '../protocol/errors';
import { inEnglish } from '../protocol/locales';
import type { Said } from '../protocol/said';
import { said } from '../protocol/said';

export type { ErrorCode };

/**
 * An error as a value: a stable code for programs, and what to tell people as something said,
 * which each shell words in its person's language. `message` is its English, for logs and tests.
 */
export class DeskError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly said: Said,
    readonly details: Record<string, unknown> = {},
  ) {
    super(inEnglish(said));
    this.name = 'DeskError';
  }
}

export function isDeskError(error: unknown): error is DeskError {
  return error instanceof DeskError;
}

const SAVE_PROBLEMS = new Map<string, Said>([
  ['ENOENT', said('exports.why.ENOENT')],
  ['EACCES', said('exports.why.EACCES')],
  ['EPERM', said('exports.why.EACCES')],
  ['EROFS', said('exports.why.EROFS')],
  ['ENOSPC', said('exports.why.ENOSPC')],
  ['EDQUOT', said('exports.why.EDQUOT')],
]);

/** A save that failed (a kit, a register), in words: what, where, and why, with nothing half-written left as whole. */
export function exportFailed(what: Said, path: string | Said, error: unknown): DeskError {
  if (isDeskError(error)) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const why = SAVE_PROBLEMS.get(code) ?? (error as Error).message;
  return new DeskError('export_failed', said('exports.failed', { what, path, why }), { code });
}
