import { z } from 'zod';
import { ASSET_HASH_PATTERN, EVENT_TYPE_PATTERN } from './patterns';

/**
 * The body of `POST /v1/certifications`, as both sides understand it.
 * The spec gives the fields and their shapes only; the limits below are our choices
 * (docs/api.md, "Certification input") and the sandbox enforces exactly these.
 */
export { ASSET_HASH_PATTERN, EVENT_TYPE_PATTERN };
// Printable text: no control characters, which would make logs and receipts ambiguous.
const PRINTABLE = /^[^\p{Cc}]+$/u;

const label = (field: string, max: number) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`),
    })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(max, `${field} must be at most ${max} characters`)
    .regex(PRINTABLE, `${field} must not contain control characters`);

export const certificationRequestSchema = z.object({
  asset_hash: z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'asset_hash is required' : 'asset_hash must be a string',
    })
    .regex(ASSET_HASH_PATTERN, 'asset_hash must be a SHA-256 hash written as 64 hexadecimal characters')
    .transform((hash) => hash.toLowerCase()),
  asset_type: label('asset_type', 64),
  source_system: label('source_system', 128),
  event_type: z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'event_type is required' : 'event_type must be a string',
    })
    .max(64, 'event_type must be at most 64 characters')
    .regex(
      EVENT_TYPE_PATTERN,
      'event_type must be upper-case words joined by underscores, like DOCUMENT_SIGNED',
    ),
});

export type CertificationRequest = z.infer<typeof certificationRequestSchema>;

/**
 * What a person chooses once for a batch of files: everything but the hash, and the matter. The
 * matter (a case or client-matter number) stays on this computer: the service asks for minimal
 * metadata, and a client's name in a matter number is not for it to know.
 */
export const batchMetadataSchema = certificationRequestSchema
  .pick({ asset_type: true, source_system: true, event_type: true })
  .extend({
    matter: z
      .string({ error: 'matter must be a string' })
      .trim()
      .max(64, 'matter must be at most 64 characters')
      .regex(/^[^\p{Cc}]*$/u, 'matter must not contain control characters')
      .optional()
      .transform((matter) => (matter ? matter : undefined)),
  });
/** As a form or command line gives it (matter optional); the schema trims it and drops an empty matter. */
export type BatchMetadata = z.input<typeof batchMetadataSchema>;
/** As the core takes it: checked once, at the edge of the shell it came through (IPC, command line). */
export type Batch = Omit<z.output<typeof batchMetadataSchema>, 'matter'> & { matter?: string };

export interface FieldError {
  field: string;
  code: 'required' | 'wrong_type' | 'invalid_format' | 'empty' | 'too_long';
  message: string;
}

/** Turns schema issues into one stable, user-readable error per offending field of `input`. */
export function toFieldErrors(error: z.ZodError, input: Record<string, unknown>): FieldError[] {
  const byField = new Map<string, FieldError>();
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'body');
    if (byField.has(field)) continue;
    byField.set(field, {
      field,
      code: fieldErrorCode(issue, input[field] === undefined),
      message: issue.message,
    });
  }
  return [...byField.values()];
}

function fieldErrorCode(issue: z.core.$ZodIssue, absent: boolean): FieldError['code'] {
  switch (issue.code) {
    case 'invalid_type':
      return absent ? 'required' : 'wrong_type';
    case 'too_small':
      return 'empty';
    case 'too_big':
      return 'too_long';
    default:
      return 'invalid_format';
  }
}
