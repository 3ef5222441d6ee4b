import type { ErrorCode } from '../protocol/errors';

export type { ErrorCode };

/**
 * An error as a value: a stable code for programs and a sentence for people, in words a
 * non-technical user understands. Everything the core reports to a shell is one of these.
 */
export class DeskError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DeskError';
  }
}

export function isDeskError(error: unknown): error is DeskError {
  return error instanceof DeskError;
}

const SAVE_PROBLEMS: Record<string, string> = {
  ENOENT: 'that folder does not exist',
  EACCES: 'Evidence Desk is not allowed to write there',
  EPERM: 'Evidence Desk is not allowed to write there',
  EROFS: 'that place is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

/** A save that failed (a kit, a register), in words: what, where, and why, with nothing half-written left as whole. */
export function exportFailed(what: string, path: string, error: unknown): DeskError {
  if (isDeskError(error)) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const why = SAVE_PROBLEMS[code] ?? (error as Error).message;
  return new DeskError('export_failed', `${what} could not be saved to ${path}: ${why}.`, { code });
}
