import { basename } from 'node:path';
import type { Batch } from '../../protocol/certification-request';
import type { AlreadyCertified, CertificationRow, IntakeProgress, PathProblem } from '../../protocol/views';
import type { FoundFile } from '../hashing/expand-paths';
import type { Identity } from '../config/identity';
import type { HashPool } from '../hashing/hash-pool';
import { progressPace } from '../progress-pace';
import type { NewCertification, QueueIntake } from '../store';

const FLUSH_AFTER_MS = 20;
const PROGRESS_EVERY_MS = 50;
const FLUSH_ROWS = 1000;

export type { IntakeProgress };

export interface IntakeReport {
  queued: CertificationRow[];
  problems: PathProblem[];
  /** Files whose exact content is already certified here: not queued again unless asked to. */
  alreadyCertified: AlreadyCertified[];
}

export interface IntakeDeps {
  queue: QueueIntake;
  pool: HashPool;
  profileId: string;
  /** Who certifies, on which computer: written with every row. */
  identity: Identity;
  /** Called as rows are written, so the sync engine can send them at once. */
  onQueued(): void;
  onProgress?(progress: IntakeProgress): void;
  /** Certify content that is already certified here once more (a new certification, a new time). */
  again?: boolean;
}

/**
 * Paths in, queued certifications out: expand folders, hash every file in the pool, and write
 * each row the moment its hash is known. A bad path or file fails alone, with its reason.
 */
export async function certifyPaths(
  paths: readonly string[],
  batch: Batch,
  deps: IntakeDeps,
): Promise<IntakeReport> {
  const batchId = Date.now();
  const files: FoundFile[] = [];
  const report: IntakeReport = { queued: [], problems: [], alreadyCertified: [] };
  // Totals grow while a folder is still being listed; the last batch event has the final ones.
  const progress = { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
  const due = progressPace(PROGRESS_EVERY_MS);
  const reportBatch = (final = false) => {
    if (due(final)) deps.onProgress?.({ kind: 'batch', ...progress });
  };
  const writer = new RowWriter(deps, report);

  const hashOne = async (file: FoundFile) => {
    let reported = 0;
    const outcome = await deps.pool.hash(
      file,
      (done, total) => {
        progress.bytesDone += done - reported;
        reported = done;
        deps.onProgress?.({ kind: 'file', path: file.path, bytesDone: done, bytesTotal: total });
        reportBatch();
      },
      file.size,
    );
    progress.filesDone++;
    progress.bytesDone += file.size - reported;
    // Content already certified is found as the rows are written (RowWriter.flush), in the same
    // transaction: one check, and none that another process could slip between.
    if (outcome.ok) {
      writer.add({
        profileId: deps.profileId,
        filePath: file.path,
        fileName: basename(file.path),
        fileSize: outcome.size,
        assetHash: outcome.hash,
        assetType: batch.asset_type,
        sourceSystem: batch.source_system,
        eventType: batch.event_type,
        certifiedBy: deps.identity.user,
        certifiedOn: deps.identity.computer,
        certifierName: deps.identity.name ?? null,
        certifierFirm: deps.identity.firm ?? null,
        matter: batch.matter ?? null,
        batchId,
      });
    } else {
      report.problems.push({ path: file.path, code: outcome.code, said: outcome.said });
    }
    reportBatch();
  };

  const hashing: Promise<void>[] = [];
  const { problems } = await deps.pool.expand(paths, (found) => {
    for (const file of found) {
      files.push(file);
      progress.filesTotal++;
      progress.bytesTotal += file.size;
      hashing.push(hashOne(file));
    }
    reportBatch();
  });
  report.problems.unshift(...problems);
  await Promise.all(hashing);
  writer.flush();
  reportBatch(true);

  // Hashes finish in any order; people read results in the order they gave the files.
  const order = new Map(files.map((file, index) => [file.path, index]));
  report.queued.sort((a, b) => (order.get(a.filePath) ?? 0) - (order.get(b.filePath) ?? 0));
  report.alreadyCertified.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
  return report;
}

/**
 * Writes rows as their hashes arrive, gathered for at most FLUSH_AFTER_MS (or FLUSH_ROWS) into
 * one transaction: a folder of thousands costs a few commits, not thousands.
 */
class RowWriter {
  private readonly unwritten: NewCertification[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: IntakeDeps,
    private readonly report: IntakeReport,
  ) {}

  add(row: NewCertification): void {
    this.unwritten.push(row);
    if (this.unwritten.length >= FLUSH_ROWS) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_AFTER_MS);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.unwritten.length === 0) return;
    const items = this.unwritten.splice(0);
    if (this.deps.again) this.report.queued.push(...this.deps.queue.enqueue(items));
    else {
      // Checked again as it is written: another process (a watched folder) may have certified the
      // same content since this file was hashed.
      const { queued, earlier } = this.deps.queue.enqueueUncertified(items);
      this.report.queued.push(...queued);
      earlier.forEach((row, index) => {
        if (!row) return;
        const { id, fileName, createdAt, state } = row;
        this.report.alreadyCertified.push({
          path: (items[index] as NewCertification).filePath,
          earlier: { id, fileName, createdAt, state },
        });
      });
    }
    this.deps.onQueued();
  }
}
