import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Receipt } from '../../protocol/receipt';
import { receiptText } from './receipt';

/**
 * Writes a certification's receipt beside the certified file, as `<file>.receipt.json` (ProofKeeper
 * does the same): the proof travels with the document in the firm's own folders. A receipt of
 * another certification already there is never overwritten: this one becomes `<file> (2).receipt.json`.
 * Returns where it was written.
 */
export function writeReceiptBesideFile(filePath: string, receipt: Receipt): string {
  let target = `${filePath}.receipt.json`;
  for (let n = 2; existsSync(target) && !isReceiptOf(target, receipt); n++)
    target = `${filePath} (${n}).receipt.json`;
  const partial = `${target}.partial`;
  writeFileSync(partial, receiptText(receipt));
  renameSync(partial, target);
  return target;
}

function isReceiptOf(path: string, receipt: Receipt): boolean {
  try {
    const existing = JSON.parse(readFileSync(path, 'utf8')) as Partial<Receipt>;
    return existing.certification?.request_id === receipt.certification.request_id;
  } catch {
    return false;
  }
}
