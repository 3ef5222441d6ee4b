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
});
