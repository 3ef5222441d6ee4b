import { spawn } from 'node:child_process';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a user would, in its own process, on `dataDir`; `input` is piped to stdin. */
export function runCli(dataDir: string, args: string[], input?: string): Promise<CliRun> {
  const dataDirArgs = args[0] === 'sandbox' ? [] : ['--data-dir', dataDir];
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/cli.ts', ...args, ...dataDirArgs], {
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input ?? '');
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}
