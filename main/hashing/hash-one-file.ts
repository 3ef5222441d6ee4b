import { stat } from 'node:fs/promises';
import { DeskError } from '../errors';
import type { FileHash, HashPool } from './hash-pool';

/** The hash of one named regular file, or a DeskError that says why not. */
export async function hashOneFile(pool: HashPool, path: string): Promise<FileHash> {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new DeskError('not_found', `${path} does not exist or cannot be read.`);
  }
  if (!info.isFile()) throw new DeskError('not_regular_file', `${path} is not a regular file.`);
  const outcome = await pool.hash(path);
  if (!outcome.ok) throw new DeskError(outcome.code, outcome.message);
  return outcome;
}
