import type { Receipt } from '../../protocol/receipt';

/** The date a forger would backdate to. */
export const BACKDATED = '2019-03-01T09:00:00.000Z';

/**
 * A genuine receipt with one readable copy of a signed fact edited, per field: what an opposing
 * party would try. Each must be refused, naming the field, by every verifier.
 */
export function editedCopies(receipt: Receipt): Record<string, Receipt> {
  const c = receipt.certification;
  const stamp = receipt.timestamp;
  if (!stamp) throw new Error('The receipt carries no timestamp to edit.');
  return {
    certified_at: { ...receipt, certification: { ...c, certified_at: BACKDATED } },
    anchored_at: { ...receipt, certification: { ...c, anchored_at: BACKDATED } },
    event_type: { ...receipt, certification: { ...c, event_type: 'DOCUMENT_RECEIVED' } },
    asset_type: { ...receipt, certification: { ...c, asset_type: 'invoice' } },
    source_system: { ...receipt, certification: { ...c, source_system: 'another-system' } },
    'timestamp.gen_time': { ...receipt, timestamp: { ...stamp, gen_time: BACKDATED } },
    'timestamp.authority': { ...receipt, timestamp: { ...stamp, authority: 'Qualified TSA' } },
  };
}

/** The verdict's words for an edited field, as all three verifiers say them. */
export const refusedCopy = (field: string): RegExp =>
  new RegExp(
    `^The proof does not hold together.*what it says under “${field.replace('.', '\\.')}” is not what`,
  );
