import { describe, expect, it } from 'vitest';
import { folderOfPick } from '../../renderer/src/chosen-folder';

// The set dialog's folder picker gives files; the folder is what lies above their relative paths,
// written with '/' by the picker and with the system's separator in the absolute path.
describe('the folder a directory picker chose', () => {
  it('is found on macOS and Linux paths, and on Windows paths with backslashes', () => {
    expect(folderOfPick('/Users/jo/Production/annex/a.pdf', 'Production/annex/a.pdf')).toBe(
      '/Users/jo/Production',
    );
    expect(folderOfPick('C:\\Matters\\Production\\annex\\a.pdf', 'Production/annex/a.pdf')).toBe(
      'C:\\Matters\\Production',
    );
    expect(folderOfPick('/elsewhere/a.pdf', 'Production/annex/a.pdf')).toBeNull();
  });
});
