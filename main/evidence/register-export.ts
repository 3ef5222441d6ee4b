import type { EvidenceSelection, ExportResult } from '../../protocol/views';
import type { Logger } from '../logging/logger';
import type { QueueReads, WatchedFolderStore } from '../store';
import type { RecordChains } from '../store/record-chains';
import type { ReceiptContext } from './receipt';

export interface RegisterExportDeps {
  reads: QueueReads;
  /** Where a row's watched folder was. */
  watched: Pick<WatchedFolderStore, 'get'>;
  recordChains: RecordChains;
  log: Logger;
  profileId: string;
  /** The profile's environment, as every receipt of it says. */
  environment: ReceiptContext['environment'];
}

/**
 * Writes the chain-of-custody register (CSV for Excel) of the certifications `ids`: each with its
 * matter, who, when, state, verification and whole timeline, read 200 at a time; then the
 * removals, when the selection is a matter or everything (chosen rows or a state have no removed rows).
 */
export async function exportRegister(
  deps: RegisterExportDeps,
  ids: readonly number[],
  selection: EvidenceSelection,
  path: string,
): Promise<ExportResult> {
  const { reads: queue, watched, recordChains, environment } = deps;
  const byFilterOnly = !selection.ids && !selection.states?.length;
  const search = selection.search?.toLowerCase();
  const removals = byFilterOnly
    ? queue
        .auditTrail(deps.profileId, selection.matter)
        .filter((entry) => entry.action === 'removed')
        .filter(
          (entry) =>
            !search || entry.fileName.toLowerCase().includes(search) || entry.assetHash.startsWith(search),
        )
    : [];
  const { writeCustodyRegister } = await import('./custody-register');
  const { certifications, eventsFile } = await writeCustodyRegister(
    {
      *entries() {
        for (let i = 0; i < ids.length; i += 200) {
          const rows = queue.getMany(ids.slice(i, i + 200));
          const histories = queue.histories(rows);
          for (const row of rows)
            yield {
              row,
              history: histories.get(row.id) ?? [],
              renewals: recordChains.renewalsOfCertification(row.id),
              environment,
              watchedFolder:
                row.watchedFolderId === null ? null : (watched.get(row.watchedFolderId)?.path ?? null),
              follows: row.followsId === null ? null : (queue.get(row.followsId) ?? null),
            };
        }
      },
      removals,
    },
    path,
  );
  deps.log.log('info', 'register.exported', { certifications, removals: removals.length });
  return { certifications, dir: null, zip: null, file: path, eventsFile };
}

/**
 * The ids a selection names, in register order (oldest batch first, each in path order): chosen
 * ids of the profile, or all a filter matches.
 */
export function selectedIds(queue: QueueReads, profileId: string, selection: EvidenceSelection): number[] {
  if (selection.ids)
    return queue
      .getMany(selection.ids)
      .filter((row) => row.profileId === profileId)
      .sort(
        (a, b) => (a.batchId ?? 0) - (b.batchId ?? 0) || a.filePath.localeCompare(b.filePath) || a.id - b.id,
      )
      .map((row) => row.id);
  // Read once, ids only: paged by offset, a register of a million rows read its pages over and over.
  return queue.ids({
    profileId,
    states: selection.states,
    search: selection.search,
    matter: selection.matter,
    sort: { column: 'added', direction: 'asc' },
  });
}
