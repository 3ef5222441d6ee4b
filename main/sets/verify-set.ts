import { realpathSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { SetProgress, SetReport } from '../../protocol/sets';
import type { FoundFile } from '../hashing/expand-paths';
import type { HashPool } from '../hashing/hash-pool';
import { progressPace } from '../progress-pace';
import { readerTurns } from '../tools/event-loop-turns';
import type { ReadDocument } from '../../verifier/sets/match-set';
import type { SetMatcher } from '../../verifier/sets/match-set';
import { setMatcher, summaryOf } from '../../verifier/sets/match-set';
import { EntriesBuilder, ReportLines, SET_KEPT_IN_MEMORY, ScratchStack } from '../store';
import type { Reference, ReferenceEntries } from '../../verifier/sets/reference';
import { normalName } from '../../verifier/sets/reference';

// At most one progress report per this many ms: enough for a bar, cheap for 100,000 files.
const PROGRESS_EVERY_MS = 100;
// Enough to keep every worker busy with batches of small files.
const IN_FLIGHT = 2048;

const realOrSame = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

type WaitingFile = { file: FoundFile; name: string };

/** A file waiting on disk: its exact bytes (a name that is not UTF-8) kept as base64. */
const waitingAsKept = {
  of: ({ file, name }: WaitingFile) => [
    file.path,
    file.size,
    file.mtimeMs,
    name,
    file.rawPath && Buffer.from(file.rawPath).toString('base64'),
  ],
  read(value: unknown): WaitingFile {
    const [path, size, mtimeMs, name, raw] = value as [string, number, number, string, string | null];
    return { file: { path, size, mtimeMs, ...(raw ? { rawPath: Buffer.from(raw, 'base64') } : {}) }, name };
  },
};

/**
 * Reads every document of the set (files and folders, folders expanded in the hashing workers)
 * with the digests the reference needs, in one read each, and matches them against it. The
 * reference's own files (a manifest inside the folder it lists, a kit saved in the production) are
 * not documents of the set. A file that cannot be read fails alone, with its reason.
 */
export async function verifySet(
  paths: readonly string[],
  source: {
    ownFiles: readonly string[];
    /** The digests the reference will want, when known before it is read. */
    digests: Reference['digests'] | null;
    /** Reads the reference, its entries kept by the builders it is given. */
    read(newEntries: () => EntriesBuilder): Promise<Reference>;
  },
  pool: HashPool,
  onProgress?: (progress: SetProgress) => void,
  /** How much (entries, lines, files waiting) is kept in memory before it is kept on disk (for tests). */
  keptInMemory?: number,
): Promise<SetReport> {
  // What the check holds beyond a production's worth is on disk, and freed when it ends: the
  // report keeps its own lines.
  const waiting = new ScratchStack<WaitingFile>(waitingAsKept, keptInMemory);
  const held: { entries?: ReferenceEntries } = {};
  try {
    return await checkSet(paths, source, pool, waiting, held, onProgress, keptInMemory);
  } finally {
    waiting.close();
    held.entries?.close();
  }
}

async function checkSet(
  paths: readonly string[],
  source: Parameters<typeof verifySet>[1],
  pool: HashPool,
  waiting: ScratchStack<WaitingFile>,
  /** Where the reference's entries are left, for the caller to free. */
  held: { entries?: ReferenceEntries },
  onProgress?: (progress: SetProgress) => void,
  keptInMemory?: number,
): Promise<SetReport> {
  // The reference's own files by every name they may be listed under (as given, and resolved):
  // compared as text, so 100,000 documents cost no extra system call each.
  const own = source.ownFiles.flatMap((file) => [resolve(file), realOrSame(file)]);
  const isOwn = (path: string) => own.some((file) => path === file || path.startsWith(file + sep));
  const progress: SetProgress = { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, listing: true };
  const due = progressPace(PROGRESS_EVERY_MS);
  const report = (force = false) => {
    if (onProgress && due(force)) onProgress({ ...progress });
  };
  // Files wait as found (a path and a size) and at most IN_FLIGHT are handed to the workers at
  // once: memory holds the results, not a promise and a job for each of 100,000 files.
  // Each document is matched as soon as it is read and the reference is known: what is kept is its
  // line of the report (on disk, for a large set), and the matching is done while the workers read.
  const lines = new ReportLines(keptInMemory);
  // Documents read before the reference is (most of a large set, hashed while it is read) wait for
  // it, a production's worth at most: then reading waits too.
  const readEarly: ReadDocument[] = [];
  const readAhead = keptInMemory ?? SET_KEPT_IN_MEMORY;
  let matcher: SetMatcher | null = null;
  const matched = (document: ReadDocument) =>
    matcher ? lines.addDocument(matcher.match(document)) : readEarly.push(document);
  let inFlight = 0;
  let allRead: () => void = () => undefined;
  // The digests wanted are known once the reference is read; until then found files only wait.
  let digests = source.digests;
  const next = () => {
    while (
      digests !== null &&
      inFlight < IN_FLIGHT &&
      (matcher || inFlight + readEarly.length < readAhead) &&
      waiting.length
    ) {
      const { file, name } = waiting.pop() as WaitingFile;
      inFlight++;
      void pool.hash(file, undefined, file.size, digests).then((outcome) => {
        inFlight--;
        progress.filesDone++;
        progress.bytesDone += file.size;
        matched(
          outcome.ok
            ? {
                name,
                path: file.path,
                digests: outcome.also ? { sha256: outcome.hash, ...outcome.also } : { sha256: outcome.hash },
              }
            : { name, path: file.path, unreadable: outcome.said },
        );
        report();
        next();
        if (inFlight === 0 && waiting.length === 0 && !progress.listing) allRead();
      });
    }
  };
  const read = (file: FoundFile, name: string) => {
    progress.filesTotal++;
    progress.bytesTotal += file.size;
    waiting.push({ file, name });
    next();
  };
  const listing = (async () => {
    for (const root of paths) {
      const isFolder = statSafe(root)?.isDirectory() ?? false;
      // The listing joins every path onto the root as given: its name is what follows.
      const prefix = join(root, sep);
      const nameOf = (path: string) =>
        normalName(
          !isFolder
            ? basename(path)
            : path.startsWith(prefix)
              ? path.slice(prefix.length)
              : relative(root, path),
        );
      const { problems } = await pool.expand([root], (files) => {
        for (const file of files) if (!isOwn(file.path)) read(file, nameOf(file.path));
      });
      for (const problem of problems)
        matched({ name: nameOf(problem.path), path: problem.path, unreadable: problem.said });
    }
  })();
  // The workers list the set while this thread reads the reference.
  let reference: Reference;
  try {
    reference = await source.read(() => new EntriesBuilder(keptInMemory));
  } catch (error) {
    await listing.catch(() => undefined);
    throw error;
  }
  held.entries = reference.entries;
  // What was read meanwhile is matched, with turns of the event loop: progress stays live.
  const takeTurn = readerTurns();
  matcher = setMatcher(reference);
  digests = reference.digests;
  next();
  for (const document of readEarly.splice(0)) {
    lines.addDocument(matcher.match(document));
    await takeTurn();
  }
  await listing;
  progress.listing = false;
  report(true);
  if (inFlight > 0 || waiting.length > 0) await new Promise<void>((resolve) => (allRead = resolve));
  for (const result of matcher.missing()) {
    lines.addMissing(result);
    await takeTurn();
  }
  lines.finish();
  report(true);
  return {
    reference: {
      kind: reference.kind,
      source: reference.source,
      problems: reference.problems,
      untrusted: reference.untrusted,
      trustedFromKit: reference.trustedFromKit,
      ...(reference.seal ? { seal: reference.seal } : {}),
    },
    roots: paths.map((path) => resolve(path)),
    results: lines,
    summary: summaryOf({ ...lines.counts }, reference),
  };
}

function statSafe(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
