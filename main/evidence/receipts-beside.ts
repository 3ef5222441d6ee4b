import type { QueueChanges } from '../../protocol/views';
import type { Logger } from '../logging/logger';
import type { Preferences } from '../preferences/preferences';
import type { Store } from '../store';
import type { EvidenceExports } from './evidence-exports';
import { writeReceiptBesideFile } from './receipt-beside-file';

/**
 * When chosen (for every file, or for a watched folder's), each certification anchored by this
 * process gets its receipt written beside the file. Listens to the change stream; returns the way
 * to stop.
 */
export function keepReceiptsBesideFiles(
  store: Store,
  preferences: Preferences,
  exports: EvidenceExports,
  log: Logger,
): () => void {
  return store.changes.subscribe((changes: QueueChanges) => {
    const anchored = changes.changed
      .filter((change) => change.state === 'anchored')
      .map((change) => change.id);
    if (anchored.length === 0) return;
    const everyFile = preferences.receiptsBesideFiles;
    const wanted = (folderId: number | null) =>
      everyFile || (folderId !== null && store.watched.get(folderId)?.receiptsBeside === true);
    for (const row of store.certifications.reads.getMany(anchored)) {
      if (!wanted(row.watchedFolderId)) continue;
      try {
        const path = writeReceiptBesideFile(row.filePath, exports.receiptFor(row));
        log.log('info', 'evidence.receipt_beside_file', { id: row.id, path });
      } catch (error) {
        // A read-only or vanished folder loses nothing: the receipt can be saved from the app at any time.
        log.log('warn', 'evidence.receipt_beside_file_failed', {
          id: row.id,
          error: (error as NodeJS.ErrnoException).code ?? (error as Error).message,
        });
      }
    }
  });
}
