import { closeSync, readSync } from 'node:fs';
import { openRegularFile } from '../evidence/read-proof';
import { LIMITS, LimitExceeded } from '../../protocol/limits';

// Read this much at a time: a load file of 100,000 lines is never held whole, as bytes or as text.
const CHUNK = 1 << 20;

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/**
 * The lines of a load file without their ends (CR LF, LF or CR), one at a time, decoded as the file
 * says: a UTF-8 or UTF-16 byte-order mark, else UTF-8 when all of it decodes as such, else
 * Windows-1252 (what older review platforms write). The file is opened now (a file that cannot be
 * opened throws here, with its code) and closed when the lines end or are left.
 */
export function loadFileLines(path: string): Generator<string, undefined> {
  const fd = openRegularFile(path);
  try {
    return linesOf(fd, encodingOf(fd));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function encodingOf(fd: number): { encoding: Encoding; markBytes: number } {
  const head = Buffer.alloc(3);
  const read = readSync(fd, head, 0, 3, 0);
  if (read === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    return { encoding: 'utf-8', markBytes: 3 };
  if (read >= 2 && head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', markBytes: 2 };
  if (read >= 2 && head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', markBytes: 2 };
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  try {
    for (const chunk of chunksOf(fd, 0)) utf8.decode(chunk, { stream: true });
    utf8.decode();
    return { encoding: 'utf-8', markBytes: 0 };
  } catch {
    return { encoding: 'windows-1252', markBytes: 0 };
  }
}

function* chunksOf(fd: number, from: number): Generator<Uint8Array> {
  const buffer = Buffer.alloc(CHUNK);
  for (let position = from; ;) {
    const read = readSync(fd, buffer, 0, CHUNK, position);
    if (read === 0) return;
    position += read;
    yield buffer.subarray(0, read);
  }
}

function* linesOf(
  fd: number,
  { encoding, markBytes }: ReturnType<typeof encodingOf>,
): Generator<string, undefined> {
  try {
    const decoder = new TextDecoder(encoding);
    const end = /\r\n|\n|\r/g;
    let rest = '';
    const take = function* (text: string, last: boolean): Generator<string> {
      let from = 0;
      end.lastIndex = 0;
      for (let found = end.exec(text); found; found = end.exec(text)) {
        // A CR that ends what is read so far may be the first half of a CR LF.
        if (!last && found[0] === '\r' && end.lastIndex === text.length) break;
        yield text.slice(from, found.index);
        from = end.lastIndex;
      }
      rest = text.slice(from);
      // A line longer than any load file's is refused as it is read, never held (docs/security.md).
      if (rest.length > LIMITS.loadFileLineBytes) throw new LimitExceeded('loadFileLineBytes');
    };
    for (const chunk of chunksOf(fd, markBytes))
      yield* take(rest + decoder.decode(chunk, { stream: true }), false);
    yield* take(rest + decoder.decode(), true);
    if (rest !== '') yield rest;
  } finally {
    closeSync(fd);
  }
}
