import { basename } from 'node:path';
import type { z } from 'zod';
import { certificationRequestSchema } from '../../protocol/certification-request';
import { DeskError } from '../errors';
import type { PathProblem } from '../hashing/expand-paths';
import { expandPaths } from '../hashing/expand-paths';
import type { HashPool } from '../hashing/hash-pool';
import type { CertificationRow, CertificationStore } from '../store/certifications-store';

export const batchMetadataSchema = certificationRequestSchema.pick({
  asset_type: true,
  source_system: true,
  event_type: true,
});
export type BatchMetadata = z.infer<typeof batchMetadataSchema>;

export type IntakeProgress =
  | { kind: 'file'; path: string; bytesDone: number; bytesTotal: number }
  | { kind: 'batch'; filesDone: number; filesTotal: number; bytesDone: number; bytesTotal: number };

export interface IntakeReport {
  queued: CertificationRow[];
  problems: PathProblem[];
}

export interface IntakeDeps {
  store: CertificationStore;
  pool: HashPool;
  profileId: string;
  /** Called as each row is written, so the sync engine can send it at once. */
  onQueued(row: CertificationRow): void;
  onProgress?(progress: IntakeProgress): void;
}

/**
 * Paths in, queued certifications out: expand folders, hash every file in the pool, and write
 * each row the moment its hash is known. A bad path or file fails alone, with its reason.
 */
export async function certifyPaths(
  paths: readonly string[],
  metadata: unknown,
  deps: IntakeDeps,
): Promise<IntakeReport> {
  const parsed = batchMetadataSchema.safeParse(metadata);
  if (!parsed.success) {
    throw new DeskError('invalid_metadata', parsed.error.issues.map((issue) => issue.message).join('; '));
  }
  const batch = parsed.data;
  const { files, problems } = await expandPaths(paths);
  const report: IntakeReport = { queued: [], problems };
  const bytesTotal = files.reduce((sum, file) => sum + file.size, 0);
  let filesDone = 0;
  let bytesDone = 0;
  const bytesOf = new Map<string, number>();
  const reportBatch = () =>
    deps.onProgress?.({ kind: 'batch', filesDone, filesTotal: files.length, bytesDone, bytesTotal });
  reportBatch();

  await Promise.all(
    files.map(async (file) => {
      const outcome = await deps.pool.hash(file.path, (done, total) => {
        bytesDone += done - (bytesOf.get(file.path) ?? 0);
        bytesOf.set(file.path, done);
        deps.onProgress?.({ kind: 'file', path: file.path, bytesDone: done, bytesTotal: total });
        reportBatch();
      });
      filesDone++;
      bytesDone += file.size - (bytesOf.get(file.path) ?? 0);
      if (!outcome.ok) {
        problems.push({ path: file.path, code: outcome.code, message: outcome.message });
      } else {
        const [row] = deps.store.enqueue([
          {
            profileId: deps.profileId,
            filePath: file.path,
            fileName: basename(file.path),
            fileSize: outcome.size,
            assetHash: outcome.hash,
            assetType: batch.asset_type,
            sourceSystem: batch.source_system,
            eventType: batch.event_type,
          },
        ]);
        report.queued.push(row as CertificationRow);
        deps.onQueued(row as CertificationRow);
      }
      reportBatch();
    }),
  );
  // Hashes finish in any order; people read results in the order they gave the files.
  const order = new Map(files.map((file, index) => [file.path, index]));
  report.queued.sort((a, b) => (order.get(a.filePath) ?? 0) - (order.get(b.filePath) ?? 0));
  return report;
}
