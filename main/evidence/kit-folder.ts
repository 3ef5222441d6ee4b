import { existsSync } from 'node:fs';
import { join } from 'node:path';

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

/** Two documents of the same name become "name" and "name (2)", never one overwriting the other. */
export class UniqueNames {
  private readonly taken = new Set<string>();
  take(name: string): string {
    let candidate = name;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = `${name} (${n})`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
