import * as nodeModule from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { PRODUCT_NAME, folderOr } from './data-dir';

/**
 * Where the command line keeps V8's compiled code between runs: the person's own cache folder, never
 * the shared temporary one Node picks by default (on a computer others use, whoever wrote code there
 * first would run it in this person's command line). EVIDENCE_DESK_CACHE_DIR overrides, as
 * EVIDENCE_DESK_DATA_DIR does the data folder (the tests and benchmarks keep theirs with their run).
 */
export function compileCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.EVIDENCE_DESK_CACHE_DIR) return env.EVIDENCE_DESK_CACHE_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', PRODUCT_NAME, 'compiled');
  if (platform === 'win32')
    return join(
      folderOr(env.LOCALAPPDATA, () => join(homedir(), 'AppData', 'Local')),
      PRODUCT_NAME,
      'Cache',
      'compiled',
    );
  return join(
    folderOr(env.XDG_CACHE_HOME, () => join(homedir(), '.cache')),
    PRODUCT_NAME,
    'compiled',
  );
}

/**
 * Every run after the first loads the command line already compiled (about 45 of its 230 ms start).
 * Only a speed-up: a folder that cannot be written, or no home folder to find it in, costs that time
 * and nothing else (Node then compiles as usual).
 */
export function keepCompiledCode(): void {
  try {
    // Absent from Node before 22.1 (and from an Electron built on one).
    nodeModule.enableCompileCache?.(compileCacheDir());
  } catch {
    // homedir() throws for an account with no home; the command itself does not need one.
  }
}
