import { describe, expect, it } from 'vitest';
import { runsFor } from '../../main/tools/pdf/fonts';

// Debian's fonts-noto-cjk is the computer's CJK font here (.ci/run installs it), as Windows and
// macOS have theirs.
describe('a sentence with a Japanese file name in a PDF', () => {
  it('is set in our font, with the computer’s CJK font only for the characters that need it', () => {
    const runs = runsFor('Receipt attached: 売買契約書.pdf.receipt.json (open it)');
    expect(runs.map((run) => run.text)).toEqual([
      'Receipt attached: ',
      '売買契約書',
      '.pdf.receipt.json (open it)',
    ]);
    expect(runs.map((run) => run.name === 'regular')).toEqual([true, false, true]);
    expect(runsFor('Linear B \u{10000}.pdf').map((run) => run.text)).toEqual(['Linear B [U+10000].pdf']);
  });
});
