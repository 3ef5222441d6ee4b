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
