import { resolve } from 'node:path';
import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT, UsageError, statesOf } from '../arguments';
import { environmentOf, err, out, outJson, printable, sayIfDemo } from '../output';

/** `export`: the evidence kit for the chosen certifications, into a folder and/or a zip. */
export async function exportKit(core: EvidenceCore, values: Values): Promise<number> {
  const states = statesOf(values);
  const ids = values.ids ? idsOf(values.ids) : undefined;
  const showProgress = process.stderr.isTTY && !values.json;
  const result = await core.exportEvidence(ids ? { ids } : { states, search: values.search }, {
    dir: values.out ? resolve(values.out) : undefined,
    zip: values.zip ? resolve(values.zip) : undefined,
    receiptsOnly: values['receipts-only'] ?? false,
    onProgress: (done, total) => {
      if (showProgress && (done === total || done % 50 === 0)) err(`wrote ${done} of ${total} certificates`);
    },
  });
  const summary = {
    certifications: result.certifications,
    ...(result.dir ? { folder: result.dir } : {}),
    ...(result.zip ? { zip: result.zip } : {}),
    environment: environmentOf(core),
  };
  if (values.json) outJson(summary);
  else {
    const where = [result.dir, result.zip].filter(Boolean).map((path) => printable(path as string));
    out(
      `Saved the evidence of ${result.certifications} certification${result.certifications === 1 ? '' : 's'} to ${where.join(' and ')}.`,
    );
    if (result.certifications === 0) out('Nothing matched: the kit holds only verify.html and its README.');
    sayIfDemo(core, values);
  }
  return EXIT.ok;
}

function idsOf(text: string): number[] {
  const ids = text.split(',').map((part) => Number(part.trim()));
  if (ids.some((id) => !Number.isInteger(id) || id < 1))
    throw new UsageError('--ids takes whole numbers separated by commas.');
  return ids;
}
