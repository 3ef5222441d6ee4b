import picomatch from 'picomatch';
import { isClutter } from '../hashing/expand-paths';

/** Which files of a watched folder are its documents. */
export interface WatchScope {
  /** A glob the file's path (or, without a '/', its name) must match: `*.pdf`, `scans/**`; null for every file. */
  include: string | null;
  /** Whether files in subfolders are certified too. */
  subfolders: boolean;
}

// Files that are not yet (or never) documents: Office's lock files (~$name.docx), temporary files
// and partial downloads (Chrome, Edge, Firefox, Safari, our own writes before their rename).
const UNFINISHED = /^~\$|\.(tmp|temp|part|partial|crdownload|download|swp)$/i;
// Our own receipts beside files: certifying them would certify a certification.
const OUR_RECEIPT = /\.receipt\.json$/i;

/**
 * Whether a path (relative to the watched folder, '/' between folders) is left alone: hidden
 * files and folders (a leading dot: .DS_Store, .~lock.x.odt#, .git), the operating system's
 * clutter, unfinished files, our receipts, files in subfolders when those are not watched, and
 * whatever the folder's glob does not include. Case does not matter to the glob: `*.pdf` takes
 * `SCAN.PDF`, as people on Windows and macOS expect.
 */
export function ignoredBy(scope: WatchScope): (relativePath: string) => boolean {
  const included = scope.include
    ? picomatch(scope.include, { nocase: true, dot: false, basename: !scope.include.includes('/') })
    : () => true;
  return (relativePath) => {
    const parts = relativePath.split('/');
    if (!scope.subfolders && parts.length > 1) return true;
    if (parts.some((part) => part.startsWith('.') || isClutter(part))) return true;
    const name = parts.at(-1) as string;
    return UNFINISHED.test(name) || OUR_RECEIPT.test(name) || !included(relativePath);
  };
}
