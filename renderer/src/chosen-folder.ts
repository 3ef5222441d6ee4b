/**
 * The folder a directory picker chose, from one file it listed: the file's absolute path without
 * the part below that folder. The picker writes that part with '/', the system writes the absolute
 * path with its own separator ('\\' on Windows). Null when the two do not fit together.
 */
export function folderOfPick(absolutePath: string, relativePath: string): string | null {
  const below = relativePath.slice(relativePath.indexOf('/') + 1);
  if (!below || !relativePath.includes('/')) return null;
  return absolutePath.replace(/\\/g, '/').endsWith(`/${below}`)
    ? absolutePath.slice(0, -below.length - 1)
    : null;
}
