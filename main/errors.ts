/**
 * An error as a value: a stable code for programs and a sentence for people, in words a
 * non-technical user understands. Everything the core reports to a shell is one of these.
 */
export class DeskError extends Error {
  constructor(
    readonly code: string,
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

/** Any thrown thing as a DeskError, keeping a DeskError as it is. */
export function toDeskError(error: unknown, code = 'unexpected', prefix = 'Something went wrong'): DeskError {
  if (isDeskError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new DeskError(code, `${prefix}: ${message}`);
}
