/**
 * Where IT sets Evidence Desk's policies, read without Electron so it is tested under Node: the
 * Windows registry (HKLM\SOFTWARE\Policies\Evidence Desk, deployed by Group Policy) and macOS
 * managed preferences (com.evidence-desk.app, deployed by MDM). Environment variables, read by
 * each policy, come first.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export const WINDOWS_POLICY_KEY = 'HKLM\\SOFTWARE\\Policies\\Evidence Desk';
export const MAC_MANAGED_PREFERENCES = '/Library/Managed Preferences/com.evidence-desk.app';

export const TRUE_WORDS = /^(1|true|yes|on)$/i;

/** `reg query` output → the named value's data as text (a DWORD as its number); null when not there. */
export function registryValue(output: string, name: string): string | null {
  const match = new RegExp(`^\\s*${name}\\s+(REG_DWORD|REG_SZ)\\s+(.*?)\\s*$`, 'im').exec(output);
  if (!match) return null;
  return match[1] === 'REG_DWORD' ? String(parseInt(match[2] as string, 16)) : (match[2] as string);
}

/** `defaults read … NAME` output → the value as text; null when not set. */
export function defaultsValue(output: string): string | null {
  const value = output.trim();
  return value === '' ? null : value;
}

const run = promisify(execFile);

/** A policy value as IT set it in the OS's policy store; null when it says nothing or cannot be read. */
export async function readPolicyValue(platform: NodeJS.Platform, name: string): Promise<string | null> {
  try {
    if (platform === 'win32')
      return registryValue((await run('reg', ['query', WINDOWS_POLICY_KEY, '/v', name])).stdout, name);
    if (platform === 'darwin')
      return defaultsValue((await run('defaults', ['read', MAC_MANAGED_PREFERENCES, name])).stdout);
  } catch {
    // No such key or preference: no policy.
  }
  return null;
}
