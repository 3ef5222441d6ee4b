import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../main/store';
import { runCli } from '../support/cli';
import type { TestWorkspace } from '../support/core';
import { workspace } from '../support/core';

// Matters and the chain-of-custody register, through the CLI on the embedded sandbox, read back
// with Python's csv module (as a spreadsheet would read it).
let ws: TestWorkspace;
beforeEach(() => {
  ws = workspace('evidence-custody-');
});
afterEach(() => ws.cleanup());

const cli = (args: string[]) => runCli(ws.dataDir, args);
const certifyArgs = ['--event-type', 'DOCUMENT_SIGNED', '--asset-type', 'contract', '--wait'];

/** The CSV's records, as Python's csv module reads them (BOM stripped by utf-8-sig). */
function readCsv(path: string): string[][] {
  const json = execFileSync('python3', [
    '-c',
    'import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], encoding="utf-8-sig", newline="")))))',
    path,
  ]).toString();
  return JSON.parse(json) as string[][];
}

describe('matters and the custody register', () => {
  it('records the matter of a batch, filters and counts by it, and exports its register with every state and removal', async () => {
    const matter = 'M-2024/118 Müller v. Smith';
    const files = ws.files({ 'b-exhibit.pdf': 'B', 'a-contract.pdf': 'A', '=HYPERLINK(x).pdf': 'C' });
    const certified = await cli(['certify', ...files, ...certifyArgs, '--matter', matter, '--json']);
    expect(certified.code, certified.stderr).toBe(0);
    expect(JSON.parse(certified.stdout).certifications.map((c: { matter: string }) => c.matter)).toEqual([
      matter,
      matter,
      matter,
    ]);
    const [other] = ws.files({ 'other.pdf': 'other matter' });
    expect((await cli(['certify', other!, ...certifyArgs])).code).toBe(0);

    // Someone removes a certification of the matter that was never sent, and retries one that failed.
    const store = openStore(join(ws.dataDir, 'queue.sqlite'));
    const [removed] = store.certifications.intake.enqueue([
      {
        profileId: 'embedded',
        filePath: join(ws.dir, 'draft.pdf'),
        fileName: 'draft.pdf',
        fileSize: 5,
        assetHash: 'd'.repeat(64),
        assetType: 'contract',
        sourceSystem: 'evidence-desk',
        eventType: 'DOCUMENT_SIGNED',
        matter,
      },
    ]);
    store.certifications.corrections.remove(removed!.id, { user: 'jdoe', computer: 'desk-7' });
    store.close();

    const status = await cli(['status', '--matter', matter, '--json']);
    const seen = JSON.parse(status.stdout) as {
      matters: { matter: string | null; counts: { anchored: number } }[];
      certifications: { file: string }[];
    };
    expect(seen.matters).toEqual([
      { matter, counts: expect.objectContaining({ anchored: 3 }) },
      { matter: null, counts: expect.objectContaining({ anchored: 1 }) },
    ]);
    // A batch reads in path order.
    expect(seen.certifications.map((c) => c.file)).toEqual(
      [...files].sort().map((path) => expect.stringContaining(path)),
    );
    const told = (await cli(['status', '--list'])).stdout;
    expect(told).toContain(`matter ${matter}: anchored 3`);
    expect(told).toMatch(/^connection: not checked/m);
    expect(told).toMatch(/^last certified: .+; last anchored: .+/m);
    expect(told).toMatch(
      new RegExp(
        `\\d{4}-\\d\\d-\\d\\dT[\\d:]+Z .* a-contract\\.pdf {2}\\[${matter.replace('.', '\\.')}\\] {2}anchored`,
      ),
    );

    const csvPath = join(ws.dir, 'register.csv');
    const exported = await cli(['export', '--csv', csvPath, '--matter', matter]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(
      `Wrote the register of 3 certifications to ${csvPath}, and each of their events, one per row, to ${join(ws.dir, 'register events.csv')}.`,
    );
    // Excel needs the byte-order mark to read UTF-8 (Müller), and Windows line ends.
    const bytes = readFileSync(csvPath);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString()).toContain('\r\n');

    const [header, ...records] = readCsv(csvPath);
    const column = (name: string) => header!.indexOf(name);
    expect(header).toEqual(
      expect.arrayContaining(['Matter', 'File', 'SHA-256', 'Certified by', 'State', 'Events']),
    );
    expect(records).toHaveLength(4);
    const certifiedRows = records.slice(0, 3);
    expect(certifiedRows.map((r) => r[column('File')])).toEqual([
      "'=HYPERLINK(x).pdf",
      'a-contract.pdf',
      'b-exhibit.pdf',
    ]);
    for (const record of certifiedRows) {
      expect(record[column('Matter')]).toBe(matter);
      expect(record[column('State')]).toBe('anchored');
      expect(record[column('Certified at (UTC)')]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(record[column('Certification id')]).toMatch(/^cert_/);
      expect(record[column('Environment')]).toMatch(/Demo sandbox.*DEMO, no legal weight/);
      expect(record[column('Verification')]).toMatch(/^verified/);
      expect(record[column('Events')]).toBe('4');
    }
    // Beside it, one row per event, for a spreadsheet to filter and sort.
    const [eventsHeader, ...events] = readCsv(csvPath.replace(/\.csv$/, ' events.csv'));
    expect(eventsHeader).toEqual([
      'File',
      'SHA-256',
      'Certification id',
      'When (UTC)',
      'State',
      'What happened',
      'By',
      'Computer',
    ]);
    const of = (file: string) => events.filter((event) => event[0] === file);
    expect(of('a-contract.pdf').map((event) => event[4])).toEqual([
      'queued',
      'submitting',
      'pending',
      'anchored',
    ]);
    // What the service said at each step is written in words, as the register is filed.
    expect(of('a-contract.pdf')[2]![5]).toMatch(/^accepted as cert_/);
    expect(of('a-contract.pdf')[3]![5]).toMatch(/^Evidence verified/);
    expect(events.every((event) => !event.join(' ').includes('[object'))).toBe(true);
    const removal = records[3]!;
    expect(removal[column('File')]).toBe('draft.pdf');
    expect(removal[column('State')]).toBe('removed');
    expect(removal[column('Certified by')]).toBe('jdoe');
    expect(of('draft.pdf')).toEqual([
      [
        'draft.pdf',
        expect.stringMatching(/^[0-9a-f]{64}$/),
        '',
        expect.stringMatching(/^\d{4}-/),
        'removed',
        'removed; it was queued, never anchored',
        'jdoe',
        'desk-7',
      ],
    ]);
    expect(records.some((r) => r[column('File')] === 'other.pdf')).toBe(false);
  }, 60_000);

  it('refuses a matter with control characters, and certifies nothing', async () => {
    const [file] = ws.files({ 'a.pdf': 'a' });
    const result = await cli(['certify', file!, ...certifyArgs, '--matter', 'M-1\nforged line']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/matter must not contain control characters/);
    expect(JSON.parse((await cli(['status', '--json'])).stdout).counts.queued).toBe(0);
  });
});
