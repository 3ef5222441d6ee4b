import { basename } from 'node:path';
import { emptyCounts } from '../../protocol/states';
import type { EvidenceCore } from '../core';
import type { IntakeProgress } from '../../protocol/views';
import type { CertificationRow } from '../../protocol/views';
import type { Values } from './arguments';
import { waitTimeoutOf } from './arguments';
import { count, describeCounts, printable } from './output';
import { peopleLocale, say, words } from './language';

const MIB = 1024 * 1024;

/** Progress for people on stderr: one updating line on a terminal, a line a second otherwise. */
export function progressPrinter(
  stream: NodeJS.WriteStream = process.stderr,
): (progress: IntakeProgress) => void {
  let lastLine = 0;
  let lastText = '';
  return (progress) => {
    const now = Date.now();
    // Nothing found yet is not progress, and the last line is said once.
    if (progress.kind === 'batch' && progress.filesTotal === 0) return;
    const finished = progress.kind === 'batch' && progress.filesDone === progress.filesTotal;
    if (!finished && now - lastLine < (stream.isTTY ? 100 : 1000)) return;
    const text =
      progress.kind === 'file'
        ? words('hashing.file', {
            name: printable(basename(progress.path)),
            percent: percent(progress.bytesDone, progress.bytesTotal),
            done: (progress.bytesDone / MIB).toFixed(0),
            total: (progress.bytesTotal / MIB).toFixed(0),
          })
        : words('hashing.batch', {
            done: progress.filesDone,
            files: count(progress.filesTotal, 'files'),
            percent: percent(progress.bytesDone, progress.bytesTotal),
          });
    if (text === lastText) return;
    lastText = text;
    lastLine = now;
    stream.write(stream.isTTY ? `\r\x1b[2K${text}${finished ? '\n' : ''}` : `${text}\n`);
  };
}

function percent(done: number, total: number): string {
  return total === 0 ? '100%' : `${Math.floor((done / total) * 100)}%`;
}

/**
 * While `--wait` waits for anchoring: counts by state on one updating line on a terminal, or a line
 * per change otherwise (a log reads well); and, while the service cannot be reached, when the next
 * try is. Returns the function that stops it.
 */
export function waitProgress(
  core: EvidenceCore,
  ids: readonly number[],
  stream: NodeJS.WriteStream = process.stderr,
): () => void {
  const mine = new Set(ids);
  const states = new Map(core.queue.rows(ids).map((row) => [row.id, row.state]));
  let lastLine = '';
  const show = () => {
    const counts = emptyCounts();
    for (const state of states.values()) counts[state]++;
    const { connectivity } = core.status();
    const retry =
      connectivity.state === 'offline' && connectivity.nextProbeAt
        ? words('wait.retry', {
            reason: connectivity.message ? say(connectivity.message) : words('wait.unreachable'),
            when: new Date(connectivity.nextProbeAt).toLocaleTimeString(peopleLocale),
          })
        : '';
    const line = words('wait.line', { counts: describeCounts(counts, { skipZero: true }) }) + retry;
    if (line === lastLine) return;
    lastLine = line;
    stream.write(stream.isTTY ? `\r\x1b[2K${line}` : `${line}\n`);
  };
  const stopChanges = core.onChanges((changes) => {
    if (changes.external) for (const row of core.queue.rows([...mine])) states.set(row.id, row.state);
    for (const change of changes.changed) if (mine.has(change.id)) states.set(change.id, change.state);
    show();
  });
  const onConnectivity = () => show();
  core.on('connectivity', onConnectivity);
  show();
  return () => {
    stopChanges();
    core.off('connectivity', onConnectivity);
    if (stream.isTTY && lastLine) stream.write('\n');
  };
}

/** `--wait`: until these settle or --timeout passes, showing progress on stderr (stdout stays the result). */
export async function waitWithProgress(
  core: EvidenceCore,
  ids: readonly number[],
  values: Values,
): Promise<CertificationRow[]> {
  const timeout = waitTimeoutOf(values);
  const stop = ids.length ? waitProgress(core, ids) : () => undefined;
  try {
    return await core.sync.waitUntilSettled(ids, timeout);
  } finally {
    stop();
  }
}
