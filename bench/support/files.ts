import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `count` small documents (0.5 to 4 KiB) in folders of 500, as a dropped case folder might hold. */
export function writeSmallFiles(root: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const folder = join(root, `folder-${Math.floor(i / 500)}`);
    if (i % 500 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `document-${i}.txt`), randomBytes(512 + (i % 8) * 512));
  }
}

export const BENCH_METADATA = {
  asset_type: 'document',
  source_system: 'bench',
  event_type: 'DOCUMENT_FILED',
};
