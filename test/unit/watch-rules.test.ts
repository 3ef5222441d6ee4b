import { describe, expect, it } from 'vitest';
import { changedSince } from '../../main/watch/catch-up';
import { ignoredBy } from '../../main/watch/ignore-rules';
import {
  isOnNetworkShare,
  mountsFromMountCommand,
  mountsFromProcMounts,
} from '../../main/watch/network-drive';
import { StabilityGate } from '../../main/watch/stability-gate';

// The small decisions of watched folders, with the inputs each platform gives.
describe('a watched folder', () => {
  it('leaves alone what is not a finished document, and what the folder does not include', () => {
    const all = ignoredBy({ include: null, subfolders: true });
    for (const path of [
      '~$Contract.docx',
      'report.pdf.crdownload',
      'scan.PART',
      'upload.tmp',
      '.~lock.budget.ods#',
      '.DS_Store',
      'Thumbs.db',
      'desktop.ini',
      '.git/config',
      'contract.pdf.receipt.json',
      'annex/._annex.pdf',
    ])
      expect(all(path), path).toBe(true);
    for (const path of ['Contract.docx', 'scans/2026/page 1.pdf', 'receipt.json.pdf', 'Tmp notes.txt'])
      expect(all(path), path).toBe(false);

    const pdfsHere = ignoredBy({ include: '*.pdf', subfolders: false });
    expect(pdfsHere('SCAN.PDF')).toBe(false);
    expect(pdfsHere('notes.txt')).toBe(true);
    expect(pdfsHere('annex/a.pdf')).toBe(true);
    const underScans = ignoredBy({ include: 'scans/**/*.pdf', subfolders: true });
    expect(underScans('scans/2026/a.pdf')).toBe(false);
    expect(underScans('other/a.pdf')).toBe(true);
  });

  it('takes a file only once its size and time have held still for the settling time', () => {
    const gate = new StabilityGate(2000);
    gate.observe('scan.pdf', { size: 100, mtimeMs: 1 }, 0);
    gate.observe('scan.pdf', { size: 200, mtimeMs: 2 }, 1500); // still being written
    expect(gate.takeReady(3000)).toEqual([]);
    gate.observe('scan.pdf', { size: 200, mtimeMs: 2 }, 3000); // unchanged: the clock runs on
    expect(gate.takeReady(3500)).toEqual([{ path: 'scan.pdf', look: { size: 200, mtimeMs: 2 } }]);
    expect(gate.size).toBe(0);
    gate.observe('gone.pdf', { size: 1, mtimeMs: 1 }, 0);
    gate.observe('gone.pdf', null, 100);
    expect(gate.takeReady(10_000)).toEqual([]);
  });

  it('catches up on what is new or changed since it was last watched, without reading the rest', () => {
    const seen = new Map([
      ['same.pdf', { size: 1, mtimeMs: 10 }],
      ['edited.pdf', { size: 1, mtimeMs: 10 }],
      ['deleted.pdf', { size: 1, mtimeMs: 10 }],
    ]);
    const { changed, gone } = changedSince(
      [
        { path: 'same.pdf', size: 1, mtimeMs: 10 },
        { path: 'edited.pdf', size: 1, mtimeMs: 11 },
        { path: 'new.pdf', size: 5, mtimeMs: 12 },
      ],
      seen,
    );
    expect(changed.map((file) => file.path)).toEqual(['edited.pdf', 'new.pdf']);
    expect(gone).toEqual(['deleted.pdf']);
  });

  it('is polled on a network share: UNC on Windows, NFS and SMB mounts on Linux and macOS', () => {
    expect(isOnNetworkShare('\\\\fileserver\\legal\\scans', 'win32', [])).toBe(true);
    expect(isOnNetworkShare('\\\\?\\C:\\very\\long\\path', 'win32', [])).toBe(false);
    expect(isOnNetworkShare('C:\\Users\\jo\\Scans', 'win32', [])).toBe(false);
    const linux = mountsFromProcMounts(
      '/dev/sda1 / ext4 rw 0 0\nfiler:/export /mnt/legal\\040share nfs4 rw 0 0\n//srv/x /mnt/smb cifs rw 0 0\n',
    );
    expect(isOnNetworkShare('/mnt/legal share/scans', 'linux', linux)).toBe(true);
    expect(isOnNetworkShare('/mnt/smb', 'linux', linux)).toBe(true);
    expect(isOnNetworkShare('/home/jo/scans', 'linux', linux)).toBe(false);
    const mac = mountsFromMountCommand(
      '/dev/disk3s1s1 on / (apfs, sealed, local, read-only, journaled)\n//jo@filer/Legal on /Volumes/Legal (smbfs, nodev, nosuid, mounted by jo)\n',
    );
    expect(isOnNetworkShare('/Volumes/Legal/Scans', 'darwin', mac)).toBe(true);
    expect(isOnNetworkShare('/Users/jo/Scans', 'darwin', mac)).toBe(false);
  });
});
