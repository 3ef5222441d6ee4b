import { describe, expect, it } from 'vitest';
import type { UpdateFacts } from '../../main/desktop-policy/update-policy';
import { parseDefaultsRead, parseRegQuery, updateDecision } from '../../main/desktop-policy/update-policy';

const windows: UpdateFacts = {
  packaged: true,
  platform: 'win32',
  env: { ProgramFiles: 'C:\\Program Files', LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' },
  execPath: 'C:\\Users\\ana\\AppData\\Local\\Programs\\Evidence Desk\\Evidence Desk.exe',
  policyDisables: null,
};

// Reading the registry and managed preferences needs Windows and macOS; what they answer is parsed
// and decided here, on the outputs those tools print.
describe('whether Evidence Desk updates itself', () => {
  it('does, when installed per user and no policy says otherwise', () => {
    expect(updateDecision(windows)).toEqual({ enabled: true });
    expect(
      updateDecision({ ...windows, platform: 'darwin', execPath: '/Applications/Evidence Desk.app/x' }),
    ).toEqual({
      enabled: true,
    });
  });

  it('does not, when IT says so: environment variable, registry or managed preference, or an MSI install', () => {
    expect(
      updateDecision({ ...windows, env: { ...windows.env, EVIDENCE_DESK_DISABLE_UPDATES: '1' } }),
    ).toEqual({
      enabled: false,
      reason: 'environment',
    });
    expect(updateDecision({ ...windows, policyDisables: true })).toEqual({
      enabled: false,
      reason: 'policy',
    });
    expect(
      updateDecision({ ...windows, execPath: 'C:\\Program Files\\Evidence Desk\\Evidence Desk.exe' }),
    ).toEqual({ enabled: false, reason: 'msi' });
    expect(updateDecision({ ...windows, packaged: false })).toEqual({
      enabled: false,
      reason: 'not-packaged',
    });
  });

  it('reads the registry’s and the managed preference’s answers', () => {
    const reg =
      '\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Evidence Desk\r\n    DisableUpdates    REG_DWORD    0x1\r\n\r\n';
    expect(parseRegQuery(reg)).toBe(true);
    expect(parseRegQuery(reg.replace('0x1', '0x0'))).toBe(false);
    expect(
      parseRegQuery('ERROR: The system was unable to find the specified registry key or value.'),
    ).toBeNull();
    expect(parseDefaultsRead('1\n')).toBe(true);
    expect(parseDefaultsRead('0\n')).toBe(false);
    expect(parseDefaultsRead('')).toBeNull();
  });
});
