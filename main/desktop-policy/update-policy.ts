/**
 * Whether Evidence Desk may update itself, decided without Electron so it is tested under Node.
 * IT departments turn updates off by policy — an environment variable, the Windows registry, a
 * macOS managed preference — and an MSI install (per machine, deployed by IT) never updates itself.
 */
import { execFile } from 'node:child_process';
import { win32 } from 'node:path';
import { promisify } from 'node:util';

export const UPDATES_ENV = 'EVIDENCE_DESK_DISABLE_UPDATES';
export const WINDOWS_POLICY_KEY = 'HKLM\\SOFTWARE\\Policies\\Evidence Desk';
export const MAC_MANAGED_PREFERENCES = '/Library/Managed Preferences/com.evidence-desk.app';
export const POLICY_VALUE = 'DisableUpdates';

export type UpdateDecision =
  { enabled: true } | { enabled: false; reason: 'not-packaged' | 'environment' | 'policy' | 'msi' };

export interface UpdateFacts {
  packaged: boolean;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The running executable: under Program Files only the per-machine MSI puts it. */
  execPath: string;
  /** What the OS policy store says (registry or managed preference); null when it says nothing. */
  policyDisables: boolean | null;
}

const TRUE_WORDS = /^(1|true|yes|on)$/i;

export function updateDecision(facts: UpdateFacts): UpdateDecision {
  if (!facts.packaged) return { enabled: false, reason: 'not-packaged' };
  const fromEnv = facts.env[UPDATES_ENV];
  if (fromEnv !== undefined && TRUE_WORDS.test(fromEnv.trim()))
    return { enabled: false, reason: 'environment' };
  if (facts.policyDisables) return { enabled: false, reason: 'policy' };
  if (facts.platform === 'win32' && isUnderProgramFiles(facts.execPath, facts.env))
    return { enabled: false, reason: 'msi' };
  return { enabled: true };
}

function isUnderProgramFiles(execPath: string, env: NodeJS.ProcessEnv): boolean {
  const folders = [env.ProgramFiles, env['ProgramFiles(x86)'], env.ProgramW6432].filter(Boolean) as string[];
  // Windows paths, read as Windows reads them (case-insensitive), whatever runs this.
  const exe = win32.normalize(execPath).toLowerCase();
  return folders.some((folder) =>
    exe.startsWith(`${win32.normalize(folder).toLowerCase().replace(/\\+$/, '')}\\`),
  );
}

/** `reg query` output → the DisableUpdates DWORD (null when the value is not there). */
export function parseRegQuery(output: string): boolean | null {
  const match = new RegExp(`^\\s*${POLICY_VALUE}\\s+REG_DWORD\\s+0x([0-9a-f]+)\\s*$`, 'im').exec(output);
  return match?.[1] === undefined ? null : parseInt(match[1], 16) !== 0;
}

/** `defaults read … DisableUpdates` output → the boolean (null when not set). */
export function parseDefaultsRead(output: string): boolean | null {
  const value = output.trim();
  return value === '' ? null : TRUE_WORDS.test(value);
}

const run = promisify(execFile);

/** What the OS policy store says about updates; null when it says nothing or cannot be read. */
export async function readPolicy(platform: NodeJS.Platform): Promise<boolean | null> {
  try {
    if (platform === 'win32')
      return parseRegQuery((await run('reg', ['query', WINDOWS_POLICY_KEY, '/v', POLICY_VALUE])).stdout);
    if (platform === 'darwin')
      return parseDefaultsRead(
        (await run('defaults', ['read', MAC_MANAGED_PREFERENCES, POLICY_VALUE])).stdout,
      );
  } catch {
    // No such key or preference: no policy.
  }
  return null;
}
