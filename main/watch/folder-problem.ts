import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';

/** Why a folder cannot be watched now, said; null when it can. */
export async function folderProblem(path: string): Promise<{ said: Said } | null> {
  try {
    const info = await stat(path);
    if (!info.isDirectory()) return { said: said('watch.notAFolder', { path }) };
    await access(path, constants.R_OK | constants.X_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { said: said('watch.folderMissing', { path }) };
    if (code === 'EACCES' || code === 'EPERM') return { said: said('watch.folderNoPermission', { path }) };
    return { said: said('watch.folderUnreadable', { path, code: code ?? (error as Error).message }) };
  }
}
