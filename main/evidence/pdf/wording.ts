import type { Receipt } from '../../../protocol/receipt';

/** "1.2 MB (1,234,567 bytes)": the exact count matters in court, the short one to a reader. */
export function humanSize(bytes: number): string {
  const exact = `${bytes.toLocaleString('en')} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1000) return exact;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]} (${exact})`;
}

/** What Evidence Desk found when it checked the evidence, in one sentence. */
export function verificationWords(receipt: Receipt): string {
  if (receipt.certification.state !== 'anchored')
    return 'Not checkable yet: the certification is not anchored.';
  switch (receipt.verification?.result) {
    case 'verified':
      return 'Verified: the evidence leads from this document’s SHA-256 to a tree head signed by the log key above.';
    case 'invalid':
      return `DID NOT VERIFY: ${receipt.verification.message ?? 'the evidence does not hold together.'}`;
    default:
      return `Not checked: ${receipt.verification?.message ?? receipt.status}`;
  }
}
