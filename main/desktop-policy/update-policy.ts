/**
 * Whether Evidence Desk may update itself, decided without Electron so it is tested under Node.
 * IT departments turn updates off by policy — an environment variable, the Windows registry, a
 * macOS managed preference — and an MSI install (per machine, deployed by IT) never updates itself.
 */
import { win32 } from 'node:path';
import { TRUE_WORDS, defaultsValue, readPolicyValue, registryValue } from './policy-store';

export const UPDATES_ENV = 'EVIDENCE_DESK_DISABLE_UPDATES';
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
  const value = registryValue(output, POLICY_VALUE);
  return value === null ? null : Number(value) !== 0;
}

/** `defaults read … DisableUpdates` output → the boolean (null when not set). */
export function parseDefaultsRead(output: string): boolean | null {
  const value = defaultsValue(output);
  return value === null ? null : TRUE_WORDS.test(value);
}

/** What the OS policy store says about updates; null when it says nothing or cannot be read. */
export async function readPolicy(platform: NodeJS.Platform): Promise<boolean | null> {
  const value = await readPolicyValue(platform, POLICY_VALUE);
  return value === null ? null : TRUE_WORDS.test(value.trim());
}
