import { basename } from 'node:path';
import type { IntakeProgress } from '../intake/certify-paths';

const MIB = 1024 * 1024;

/** Progress for people on stderr: one updating line on a terminal, a line a second otherwise. */
export function progressPrinter(
  stream: NodeJS.WriteStream = process.stderr,
): (progress: IntakeProgress) => void {
  let lastLine = 0;
  return (progress) => {
    const now = Date.now();
    const finished = progress.kind === 'batch' && progress.filesDone === progress.filesTotal;
    if (!finished && now - lastLine < (stream.isTTY ? 100 : 1000)) return;
    lastLine = now;
    const text =
      progress.kind === 'file'
        ? `hashing ${basename(progress.path)}: ${percent(progress.bytesDone, progress.bytesTotal)} (${(progress.bytesDone / MIB).toFixed(0)} of ${(progress.bytesTotal / MIB).toFixed(0)} MiB)`
        : `hashed ${progress.filesDone} of ${progress.filesTotal} files (${percent(progress.bytesDone, progress.bytesTotal)})`;
    stream.write(stream.isTTY ? `\r\x1b[2K${text}${finished ? '\n' : ''}` : `${text}\n`);
  };
}

function percent(done: number, total: number): string {
  return total === 0 ? '100%' : `${Math.floor((done / total) * 100)}%`;
}
