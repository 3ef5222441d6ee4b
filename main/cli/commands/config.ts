import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT, UsageError } from '../arguments';
import { out, outJson } from '../output';

/** `config [receipts-beside-files on|off]`: the preferences that are not a profile's. */
export function config(core: EvidenceCore, args: string[], values: Values): number {
  const [name, value] = args;
  if (name !== undefined) {
    if (name !== 'receipts-beside-files' || (value !== 'on' && value !== 'off'))
      throw new UsageError('config takes: receipts-beside-files on|off');
    core.preferences.setReceiptsBesideFiles(value === 'on');
  }
  const current = { 'receipts-beside-files': core.preferences.receiptsBesideFiles ? 'on' : 'off' };
  if (values.json) outJson(current);
  else
    out(
      `receipts-beside-files ${current['receipts-beside-files']}: ${core.preferences.receiptsBesideFiles ? 'a receipt is written beside each certified file once it is anchored' : 'receipts are saved only when asked for (export)'}`,
    );
  return EXIT.ok;
}
