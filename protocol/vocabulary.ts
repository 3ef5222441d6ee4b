import type { Said } from './said';
import { said } from './said';

/**
 * What happened to a document, and what kind of document it is, as legal staff say it: each a
 * word in the reader's language for one of the service's codes. The codes are what the service
 * records (`event_type`, `asset_type`); they show only in technical details. A code not listed
 * here (a custom event, an older certification) is shown as it was written.
 */
export const EVENTS = [
  'DOCUMENT_SIGNED',
  'DOCUMENT_RECEIVED',
  'DOCUMENT_SENT',
  'DOCUMENT_PRODUCED',
  'DOCUMENT_FILED',
  'EVIDENCE_COLLECTED',
  'DOCUMENT_APPROVED',
  'DOCUMENT_ARCHIVED',
] as const;

export const KINDS = [
  'contract',
  'correspondence',
  'exhibit',
  'scan',
  'email',
  'invoice',
  'image',
  'recording',
  'document',
] as const;

const isKnown = <T extends string>(list: readonly T[], code: string): code is T =>
  (list as readonly string[]).includes(code);

/** An event's words, or its code as written when it is not one we name. */
export const eventSaid = (code: string): Said =>
  isKnown(EVENTS, code) ? said(`vocabulary.event.${code}`) : said('asWritten', { text: code });

/** A kind of document's words, or its code as written when it is not one we name. */
export const kindSaid = (code: string): Said =>
  isKnown(KINDS, code) ? said(`vocabulary.kind.${code}`) : said('asWritten', { text: code });
