import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalState } from '../../../protocol/states';
import { LOCAL_STATES } from '../../../protocol/states';
import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT, UsageError } from '../arguments';
import { out, outJson } from '../output';

/** Writes a receipt for each chosen certification into a folder (certificates and the kit come next). */
export function exportReceipts(core: EvidenceCore, values: Values): number {
  const dir = values.out as string;
  const states = (values.state ?? []).map((state) => {
    if (!LOCAL_STATES.includes(state as LocalState))
      throw new UsageError(`--state takes one of ${LOCAL_STATES.join(', ')}.`);
    return state as LocalState;
  });
  const ids = values.ids ? idsOf(values.ids) : undefined;
  const rows = ids ? core.rows(ids) : core.list({ states, search: values.search, limit: 1_000_000 });
  mkdirSync(dir, { recursive: true });
  const taken = new Set<string>();
  const written = rows.map((row) => {
    const name = uniqueName(`${row.fileName}.receipt.json`, taken);
    writeFileSync(join(dir, name), `${JSON.stringify(core.receipt(row.id), null, 2)}\n`);
    return { id: row.id, receipt: join(dir, name) };
  });
  if (values.json) outJson({ receipts: written });
  else out(`wrote ${written.length} receipt(s) to ${dir}`);
  return EXIT.ok;
}

function idsOf(text: string): number[] {
  const ids = text.split(',').map((part) => Number(part.trim()));
  if (ids.some((id) => !Number.isInteger(id) || id < 1))
    throw new UsageError('--ids takes whole numbers separated by commas.');
  return ids;
}

/** Two files of the same name get "name (2).receipt.json", never one overwriting the other. */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++)
    candidate = name.replace(/\.receipt\.json$/, ` (${n}).receipt.json`);
  taken.add(candidate.toLowerCase());
  return candidate;
}
