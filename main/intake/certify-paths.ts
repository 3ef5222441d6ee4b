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
// Files listed ahead of their hashing: enough to keep every worker busy, few enough that a
// production of a million is never held at once (each file waiting holds its path and a promise).
const LISTED_AHEAD = 4096;

export type { IntakeProgress };

export interface IntakeReport {
  /** The certifications queued, by id, in the order the files were given. */
  queued: number[];
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
 * each row the moment its hash is known. A bad path or file fails alone, with its reason. Files
 * are listed as fast as they are hashed, after being counted for the progress shown: memory stays
 * the same for a thousand files or a million.
 */
export async function certifyPaths(
  paths: readonly string[],
  batch: Batch,
  deps: IntakeDeps,
): Promise<IntakeReport> {
  const batchId = Date.now();
  const problems: PathProblem[] = [];
  // The count comes first; files found beyond it (added meanwhile) raise it.
  const counted = { files: 0, bytes: 0 };
  const found = { files: 0, bytes: 0 };
  const progress = { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
  const due = progressPace(PROGRESS_EVERY_MS);
  const reportBatch = (final = false) => {
    progress.filesTotal = final ? found.files : Math.max(counted.files, found.files);
    progress.bytesTotal = final ? found.bytes : Math.max(counted.bytes, found.bytes);
    if (due(final)) deps.onProgress?.({ kind: 'batch', ...progress });
  };
  const writer = new RowWriter(deps);

  let hashing = 0;
  let failure: Error | null = null;
  let caughtUp: (() => void) | null = null;
  let allHashed: (() => void) | null = null;
  const hashOne = async (file: FoundFile, place: number) => {
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
      writer.add(place, {
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
      problems.push({ path: file.path, code: outcome.code, said: outcome.said });
    }
    reportBatch();
  };
  const settle = () => {
    hashing--;
    if (caughtUp && hashing < LISTED_AHEAD / 2) {
      caughtUp();
      caughtUp = null;
    }
    if (hashing === 0) allHashed?.();
  };

  const listing = await deps.pool.expand(
    paths,
    (files) => {
      // A row that could not be written stops the listing: the intake fails now, not hours on.
      if (failure) throw failure;
      for (const file of files) {
        hashing++;
        found.files++;
        found.bytes += file.size;
        hashOne(file, found.files - 1)
          .catch((error: unknown) => void (failure ??= error as Error))
          .finally(settle);
      }
      reportBatch();
      // The next files are listed once hashing has caught up.
      if (hashing >= LISTED_AHEAD) return new Promise<void>((resolve) => (caughtUp = resolve));
    },
    (files, bytes) => {
      counted.files = files;
      counted.bytes = bytes;
      reportBatch();
    },
  );
  if (hashing > 0) await new Promise<void>((resolve) => (allHashed = resolve));
  if (failure) throw failure;
  writer.flush();
  reportBatch(true);
  return {
    queued: writer.queuedInOrder(),
    problems: [...listing.problems, ...problems],
    alreadyCertified: writer.alreadyInOrder(),
  };
}

const placeOf = (items: readonly { place: number }[], index: number): number =>
  (items[index] as { place: number }).place;

/**
 * Writes rows as their hashes arrive, gathered for at most FLUSH_AFTER_MS (or FLUSH_ROWS) into
 * one transaction: a folder of thousands costs a few commits, not thousands. Keeps only each
 * queued row's id, by its file's place in the order given.
 */
class RowWriter {
  private unwritten: { place: number; row: NewCertification }[] = [];
  private timer: NodeJS.Timeout | undefined;
  // Each queued row's id at its file's place (0: none), in one array of numbers that doubles as
  // it fills: a million rows' ids are 8 MB, and put in order without sorting.
  private idsByPlace = new Float64Array(1024);
  private readonly already: { place: number; said: AlreadyCertified }[] = [];

  constructor(private readonly deps: IntakeDeps) {}

  add(place: number, row: NewCertification): void {
    this.unwritten.push({ place, row });
    if (this.unwritten.length >= FLUSH_ROWS) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_AFTER_MS);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.unwritten.length === 0) return;
    const items = this.unwritten;
    this.unwritten = [];
    const rows = items.map((item) => item.row);
    if (this.deps.again)
      this.deps.queue.enqueue(rows).forEach((row, index) => this.keep(placeOf(items, index), row.id));
    else {
      // Checked again as it is written: another process (a watched folder) may have certified the
      // same content since this file was hashed.
      const { queued, earlier } = this.deps.queue.enqueueUncertified(rows);
      // The rows written follow the items not certified earlier, in their order.
      let next = 0;
      earlier.forEach((row, index) => {
        const place = placeOf(items, index);
        if (!row) return this.keep(place, (queued[next++] as CertificationRow).id);
        const { id, fileName, createdAt, state } = row;
        this.already.push({
          place,
          said: {
            path: (rows[index] as NewCertification).filePath,
            earlier: { id, fileName, createdAt, state },
          },
        });
      });
    }
    this.deps.onQueued();
  }

  /** Hashes finish in any order; people read results in the order they gave the files. */
  queuedInOrder(): number[] {
    const inOrder: number[] = [];
    for (const id of this.idsByPlace) if (id > 0) inOrder.push(id);
    return inOrder;
  }

  alreadyInOrder(): AlreadyCertified[] {
    return this.already.sort((a, b) => a.place - b.place).map((entry) => entry.said);
  }

  private keep(place: number, id: number): void {
    if (place >= this.idsByPlace.length) {
      const grown = new Float64Array(Math.max(place + 1, this.idsByPlace.length * 2));
      grown.set(this.idsByPlace);
      this.idsByPlace = grown;
    }
    this.idsByPlace[place] = id;
  }
}
