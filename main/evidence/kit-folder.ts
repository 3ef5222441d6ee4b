import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ScratchSet } from '../store';

/** A new folder for a kit inside the one chosen: "Evidence kit 2026-11-22 1432", numbered if taken. */
export function kitFolderIn(parent: string, now = new Date()): string {
  const stamp = now.toISOString().slice(0, 16).replace('T', ' ').replace(':', '');
  let candidate = join(parent, `Evidence kit ${stamp}`);
  for (let n = 2; existsSync(candidate); n++) candidate = join(parent, `Evidence kit ${stamp} (${n})`);
  return candidate;
}

/** A name every file system takes (Windows refuses <>:"/\|?* and names ending in a dot or space). */
export function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const safe = name.replace(/[<>:"/\\|?*\u0000-\u001f]/g, '_').replace(/[. ]+$/, '');
  return safe.slice(0, 180) || 'document';
}

/**
 * Two documents of the same name become "name" and "name (2)", never one overwriting the other
 * (compared as a case-blind file system would).
 */
export class UniqueNames {
  private readonly taken: ScratchSet;

  /** `keptInMemory`: how many names are kept in memory before the rest go to disk. */
  constructor(keptInMemory?: number) {
    this.taken = new ScratchSet(keptInMemory);
  }

  take(name: string): string {
    let candidate = name;
    for (let n = 2; !this.taken.add(candidate.toLowerCase()); n++) candidate = `${name} (${n})`;
    return candidate;
  }

  /** Lets what holds the names go; nothing is taken after. */
  close(): void {
    this.taken.close();
  }
}
