import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFileLines } from '../../main/sets/load-file-lines';

// A load file is read a megabyte at a time: a line, a CR LF or a character may be cut between
// two reads, and must come out whole.
const MB = 1 << 20;
const dir = mkdtempSync(join(tmpdir(), 'load-file-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function written(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('the lines of a load file', () => {
  it('are whole where a read ends inside a CR LF or a character, in UTF-8, UTF-16 and Windows-1252', () => {
    // The first line is as long as needed for the cut to fall where it is wanted.
    const lines = (first: number) => ['x'.repeat(first), 'þGeschäftsbericht.pdfþ', 'ñ'.repeat(300), 'last'];
    const cases: [string, string[], (text: string) => Buffer][] = [
      // The read ends between CR and LF.
      ['crlf', lines(MB - 1), (text) => Buffer.from(text, 'latin1')],
      // The read ends inside the two bytes of a UTF-8 'ä'.
      ['utf-8', lines(MB - 10), (text) => Buffer.from(text, 'utf8')],
      // The read ends between CR and LF in UTF-16, after its byte-order mark.
      [
        'utf-16',
        lines(MB / 2 - 2),
        (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      ],
    ];
    for (const [name, expected, encode] of cases) {
      const path = written(`${name}.dat`, encode(expected.join('\r\n')));
      expect([...loadFileLines(path)], name).toEqual(expected);
    }
  });

  it('end as the text does: no empty last line after a final line end, a lone CR and LF end lines too', () => {
    const path = written('ends.dat', Buffer.from('one\rtwo\nthree\r\n\r\nfive\r\n'));
    expect([...loadFileLines(path)]).toEqual(['one', 'two', 'three', '', 'five']);
  });
});
