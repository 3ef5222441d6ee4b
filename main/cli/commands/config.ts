import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT, UsageError } from '../arguments';
import { out, outJson } from '../output';
import { words } from '../language';

/** `config [receipts-beside-files on|off]`: the preferences that are not a profile's. */
export function config(core: EvidenceCore, args: string[], values: Values): number {
  const [name, value] = args;
  if (name !== undefined) {
    if (name !== 'receipts-beside-files' || (value !== 'on' && value !== 'off'))
      throw new UsageError(words('usageErrors.config'));
    core.preferences.setReceiptsBesideFiles(value === 'on');
  }
  const current = { 'receipts-beside-files': core.preferences.receiptsBesideFiles ? 'on' : 'off' };
  if (values.json) outJson(current);
  else out(words(core.preferences.receiptsBesideFiles ? 'config.on' : 'config.off'));
  return EXIT.ok;
}
