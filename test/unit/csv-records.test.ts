import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NotWellFormed, csvRecords } from '../../main/sets/csv-records';

// A register is read a chunk at a time; a record may be cut anywhere, even between the two quotes
// of a quote written twice or between CR and LF. Read with every chunk size from 1 to 40 bytes, a
// file must give exactly the cells csv-parse gives.
const dir = mkdtempSync(join(tmpdir(), 'csv-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readAll = (path: string, chunk?: number) => {
  const records: string[][] = [];
  for (const record of csvRecords(path, { chunkBytes: chunk }))
    records.push(Array.from({ length: record.width }, (_, at) => record.cell(at)));
  return records;
};

describe('a CSV file read a chunk at a time', () => {
  it('gives the cells csv-parse gives, wherever the chunks are cut', () => {
    const rows = [
      ['Matter', 'File', 'Path', 'SHA-256', 'State'],
      ['2026-0142', 'memo, "draft".pdf', '/cases/memo, "draft".pdf', 'ab'.repeat(32), 'anchored'],
      ['', 'Geschäftsbericht.pdf', 'C:\\Akten\\Geschäftsbericht.pdf', 'cd'.repeat(32), 'anchored'],
      ['x', 'two\r\nlines.txt', '/a/"', '', ''],
      ['', '', '', '', ''],
    ];
    const path = join(dir, 'register.csv');
    writeFileSync(path, `\ufeff${stringify(rows, { record_delimiter: 'windows' })}`);
    const expected = parse(readFileSync(path), { bom: true }) as string[][];
    expect(expected).toEqual(rows);
    for (let chunk = 1; chunk <= 40; chunk++) expect(readAll(path, chunk)).toEqual(rows);
    expect(readAll(path)).toEqual(rows);
    expect(readAll(path)[3]?.[1]).toBe('two\r\nlines.txt');
  });

  it('reads what Excel saves: another separator, and cells in Windows-1252', () => {
    const path = join(dir, 'excel.csv');
    writeFileSync(
      path,
      Buffer.concat([
        Buffer.from('File;Path\r\n"a;b";C:\\Akten\\'),
        Buffer.from([0xe4, 0x80]),
        Buffer.from('.pdf\r\n'),
      ]),
    );
    for (const chunk of [1, 2, 1024])
      expect(
        Array.from(csvRecords(path, { separator: ';', chunkBytes: chunk }), (record) => [
          record.cell(0),
          record.cell(1),
        ]),
      ).toEqual([
        ['File', 'Path'],
        ['a;b', 'C:\\Akten\\ä€.pdf'],
      ]);
  });

  it('reads a last line without a line break, and an empty file as no records', () => {
    const path = join(dir, 'short.csv');
    writeFileSync(path, 'a,b\n1,');
    for (const chunk of [1, 2, 3, 1024])
      expect(readAll(path, chunk)).toEqual([
        ['a', 'b'],
        ['1', ''],
      ]);
    writeFileSync(path, '');
    expect(readAll(path)).toEqual([]);
  });

  it('refuses what is not as we write it, for csv-parse to say where and why', () => {
    const path = join(dir, 'bad.csv');
    for (const text of [
      'a,b\r\n1,2,3\r\n',
      'a,b\r\n"1"x,2\r\n',
      'a,b\r\n1",2\r\n',
      'a,b\r\n"1,2\r\n',
      'a\rb\r\n',
    ]) {
      writeFileSync(path, text);
      for (const chunk of [1, 5, 1024]) expect(() => readAll(path, chunk), text).toThrow(NotWellFormed);
    }
  });
});
