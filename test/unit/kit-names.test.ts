import { describe, expect, it } from 'vitest';
import { UniqueNames } from '../../main/evidence/kit-folder';

describe('the names of a kit’s files', () => {
  it('never repeat, as a case-blind file system compares them, also once they are kept on disk', () => {
    // Two kept in memory: the rest goes to the scratch database a kit of a million uses.
    const names = new UniqueNames(2);
    const taken = ['Contract.pdf', 'memo.pdf', 'contract.PDF', 'Contract.pdf', 'letter.pdf', 'MEMO.pdf'].map(
      (name) => names.take(name),
    );
    names.close();
    expect(taken).toEqual([
      'Contract.pdf',
      'memo.pdf',
      'contract.PDF (2)',
      'Contract.pdf (3)',
      'letter.pdf',
      'MEMO.pdf (2)',
    ]);
  });

  it('still never repeat when the scratch database has taken tens of thousands, written a batch at a time', () => {
    const names = new UniqueNames(2);
    for (let i = 0; i < 25_000; i++) names.take(`scan-${i}.pdf`);
    const again = ['SCAN-5.pdf', 'scan-12345.pdf', 'scan-24999.PDF', 'scan-25000.pdf'].map((name) =>
      names.take(name),
    );
    names.close();
    expect(again).toEqual(['SCAN-5.pdf (2)', 'scan-12345.pdf (2)', 'scan-24999.PDF (2)', 'scan-25000.pdf']);
  });
});
