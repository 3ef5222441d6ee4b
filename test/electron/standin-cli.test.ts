import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workspace } from '../support/core';

// The installed app as the command line (`Evidence Desk --cli …`, what the installers' launcher
// runs): the BUILT shell (dist/main/main.js) under plain Node with the RECORDING STAND-IN for
// `electron` (test/electron/standin/; Electron's binary cannot be downloaded here). What it proves:
// the bundle runs the command in-process without a window, prints to stdout and stderr, and exits
// with the command's code, also through the exit-code file the Windows launcher reads.
const ws = workspace('evidence-standin-cli-');
afterAll(() => ws.cleanup());

function runInstalled(args: string[], exitFile: string) {
  const child = spawn(
    process.execPath,
    ['--import', './test/electron/standin/register.mjs', 'dist/main/main.js', '--cli', ...args],
    {
      env: { ...process.env, LC_ALL: 'C', STANDIN_DIR: ws.dir, EVIDENCE_DESK_EXIT_FILE: exitFile },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('the installed app with --cli', () => {
  it('runs a command without a window and exits with its code, also through the exit-code file', async () => {
    const status = await runInstalled(['status', '--data-dir', ws.dataDir], join(ws.dir, 'status.code'));
    expect(status.stderr).toBe('');
    expect(status.stdout).toMatch(/^queued 0, sending 0, pending 0, anchored 0, failed 0$/m);
    expect(status.code).toBe(0);
    expect(readFileSync(join(ws.dir, 'status.code'), 'utf8')).toBe('0');

    const bad = await runInstalled(['certify'], join(ws.dir, 'bad.code'));
    expect(bad.stderr).toMatch(/certify needs at least one file or folder/);
    expect(bad.code).toBe(2);
    expect(readFileSync(join(ws.dir, 'bad.code'), 'utf8')).toBe('2');
  }, 60_000);
});
