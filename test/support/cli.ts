import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The command line as it ships: the bundle the test run's global setup built (dist/main/cli.js),
 * run by Node, as the package's `evidence-desk` runs it.
 */
export const CLI = ['dist/main/cli.js'];

/** Runs the CLI as a user would, in its own process, on `dataDir`; `input` is piped to stdin. */
export function runCli(dataDir: string, args: string[], input?: string): Promise<CliRun> {
  return runCliWith(dataDir, args, input);
}

/** The same, with environment variables added (a proxy, extra CA certificates). */
export function runCliWith(
  dataDir: string,
  args: string[],
  input?: string,
  env: NodeJS.ProcessEnv = {},
  nodeOptions: string[] = [],
): Promise<CliRun> {
  const dataDirArgs = args[0] === 'sandbox' ? [] : ['--data-dir', dataDir];
  const child = spawn(process.execPath, [...nodeOptions, ...CLI, ...args, ...dataDirArgs], {
    stdio: 'pipe',
    // English unless a test asks for another language: the assertions read English words.
    env: { ...process.env, LC_ALL: 'C', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input ?? '');
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** `profile set` for a custom service, as a user types it (secrets are piped in separately). */
export function profileSetArgs(
  id: string,
  service: { baseUrl: string; tokenUrl: string },
  clientId: string,
  ...extra: string[]
): string[] {
  return [
    'profile',
    'set',
    '--id',
    id,
    '--kind',
    'custom',
    '--base-url',
    service.baseUrl,
    '--token-url',
    service.tokenUrl,
    '--client-id',
    clientId,
    ...extra,
  ];
}

/** A run of the CLI with its peak memory (resident set, MB) and its time (ms), for hostile input. */
export async function runCliMeasured(
  dataDir: string,
  args: string[],
): Promise<CliRun & { peakMb: number; ms: number }> {
  const file = join(mkdtempSync(join(tmpdir(), 'evidence-peak-')), 'peak');
  const started = performance.now();
  const run = await runCliWith(dataDir, args, undefined, { PEAK_MEMORY_FILE: file }, [
    '--import',
    resolve('test/support/peak-memory.mjs'),
  ]);
  const ms = performance.now() - started;
  const peakMb = existsSync(file) ? Number(readFileSync(file, 'utf8')) / 1024 : Infinity;
  rmSync(dirname(file), { recursive: true, force: true });
  return { ...run, peakMb, ms };
}
