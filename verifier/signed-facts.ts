import type { LogFacts, Receipt, ReceiptVerdict, StatedFacts } from '../protocol/receipt';
import { RECEIPT_V1, SANDBOX_LEAF_ENVIRONMENT } from '../protocol/receipt';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The facts a leaf commits to (the tree head's signature covers them through the inclusion proof),
 * and the tree head's own time. A verdict states these and nothing else; the receipt's readable
 * copies must agree with them. Fields a service did not put in its leaf stay null (unsigned).
 */
export function logFactsOf(
  leafInput: string,
  head: { timestamp: number },
  leafIndex: number,
  treeSize: number,
  keyFingerprint: string,
): LogFacts {
  let leaf: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(leafInput) as unknown;
    if (parsed && typeof parsed === 'object') leaf = parsed as Record<string, unknown>;
  } catch {
    // An unreadable leaf is refused by the evidence check before facts are read.
  }
  const certifiedAt = text(leaf.certified_at);
  return {
    certificationId: text(leaf.certification_id),
    assetType: text(leaf.asset_type),
    sourceSystem: text(leaf.source_system),
    eventType: text(leaf.event_type),
    certifiedAt: certifiedAt !== null && Number.isFinite(Date.parse(certifiedAt)) ? certifiedAt : null,
    anchoredAt: new Date(head.timestamp).toISOString(),
    entry: leafIndex + 1,
    treeSize,
    keyFingerprint,
    demo: leaf.environment === SANDBOX_LEAF_ENVIRONMENT,
  };
}

/** A readable copy in the receipt that differs from the bytes someone signed. */
export interface CopyMismatch {
  field: string;
  signedBy: 'the signed leaf' | 'the signed tree head' | 'the timestamp token' | 'the evidence record';
}

/** The verdict on a receipt whose readable copy differs from the signed bytes, naming the field. */
export function copyRefused(mismatch: CopyMismatch): Extract<ReceiptVerdict, { verdict: 'receipt_invalid' }> {
  return {
    verdict: 'receipt_invalid',
    check: 'copy',
    field: mismatch.field,
    message: `The receipt was edited after it was made: what it says under “${mismatch.field}” is not what ${mismatch.signedBy} says. Do not rely on it: ask whoever sent it for the original receipt or certificate.`,
  };
}

const sameInstant = (a: string | null, b: string | null) =>
  a !== null && b !== null && Date.parse(a) === Date.parse(b);

/**
 * Compares each readable copy with what the log signed. Receipts of format v1 wrote the
 * certifying computer's own clock into `certified_at` and `anchored_at`, so there those two are
 * not copies of anything signed: they are shown as stated, never compared and never vouched for.
 */
export function firstCopyMismatch(receipt: Receipt, facts: LogFacts): CopyMismatch | null {
  const leaf = 'the signed leaf' as const;
  const c = receipt.certification;
  const copies: [string, string | null, string | null][] = [
    ['certification_id', c.certification_id, facts.certificationId],
    ['asset_type', c.asset_type, facts.assetType],
    ['source_system', c.source_system, facts.sourceSystem],
    ['event_type', c.event_type, facts.eventType],
  ];
  for (const [field, copy, signed] of copies)
    if (signed !== null && copy !== null && copy !== signed) return { field, signedBy: leaf };
  if (receipt.format === RECEIPT_V1) return null;
  if (facts.certifiedAt !== null && !sameInstant(c.certified_at, facts.certifiedAt))
    return { field: 'certified_at', signedBy: leaf };
  if (c.anchored_at !== null && !sameInstant(c.anchored_at, facts.anchoredAt))
    return { field: 'anchored_at', signedBy: 'the signed tree head' };
  return null;
}

/** What nobody signed: said apart, as stated by whoever made the receipt. */
export function statedFactsOf(receipt: Receipt, logSigned: boolean): StatedFacts {
  const c = receipt.certification;
  return {
    fileName: receipt.file.name,
    matter: c.matter,
    certifiedBy: c.certified_by.user,
    computer: c.certified_by.computer,
    person: personOf(c.certified_by),
    computerClock:
      receipt.format === RECEIPT_V1 || !logSigned
        ? { certifiedAt: c.certified_at, anchoredAt: c.anchored_at }
        : null,
  };
}

/** The person who certified, as they wrote it: "name, firm", either alone, or null. */
export function personOf(by: { name?: string | null; firm?: string | null }): string | null {
  return [by.name, by.firm].filter(Boolean).join(', ') || null;
}
