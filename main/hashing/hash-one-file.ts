import { stat } from 'node:fs/promises';
import { DeskError } from '../errors';
import { resolveLossyPath } from './expand-paths';
import type { FileHash, HashPool } from './hash-pool';
import { said } from '../../protocol/said';

/** The hash of one named regular file, or a DeskError that says why not. */
export async function hashOneFile(pool: HashPool, path: string): Promise<FileHash> {
  // A name that was not UTF-8 reaches us mangled; find the file it was.
  const target = resolveLossyPath(path);
  let info;
  try {
    info = await stat(target?.raw ?? path);
  } catch {
    throw new DeskError('not_found', said('file.doesNotExist', { path }));
  }
  if (!info.isFile()) throw new DeskError('not_regular_file', said('file.notRegular', { path }));
  const outcome = await pool.hash(target ? { path: target.path, rawPath: target.raw } : path);
  if (!outcome.ok) throw new DeskError(outcome.code, outcome.said);
  return outcome;
}
