import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The benchmarks' smoke run: every benchmark once at a five-hundredth of its size, at a low priority
 * (the other test files run beside it, some timed by what a person sees). It mostly waits, so the
 * global setup starts it as soon as the app is built and it uses what the processor has left while
 * the files run; test/unit/benchmarks.test.ts then reads its result. It once started last, as a
 * small file, and ended the whole run alone a minute after the rest.
 */
const DIR = join(process.cwd(), 'test-results', 'bench-smoke');
const STARTED = join(DIR, 'started');
const RESULT = join(DIR, 'result.json');
const COMMAND = ['nice', '-n', '15', process.execPath, '--import', 'tsx', 'bench/run.ts'] as const;
// Each load lasts a second: at 0.3 s a starved reference load measured nothing (0 req/s, an infinite ratio).
const ENV = { ...process.env, BENCH_SCALE: '0.002', BENCH_SECONDS: '1' };

export interface BenchSmokeRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Forgets an earlier run's smoke result: a run that does not start one must never read the last one's. */
export function forgetBenchSmoke(): void {
  rmSync(DIR, { recursive: true, force: true });
}

/** Starts the smoke run beside the tests; answers a function that stops it if it is still running. */
export function startBenchSmoke(): () => void {
  forgetBenchSmoke();
  mkdirSync(DIR, { recursive: true });
  const [command, ...args] = COMMAND;
  const child = spawn(command, args, { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Written whole, then renamed: the test never reads half a result.
  child.once('close', (status) => {
    writeFileSync(`${RESULT}.partial`, JSON.stringify({ status, stdout, stderr }));
    renameSync(`${RESULT}.partial`, RESULT);
  });
  // Which Vitest started it: its test files' parent process. A file run by another never reads it.
  writeFileSync(STARTED, String(process.pid));
  return () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
}

/** The smoke run's result: the global setup's, waited for; or, when it did not start one, a run now. */
export async function benchSmokeResult(timeoutMs: number): Promise<BenchSmokeRun> {
  const startedHere = existsSync(STARTED) && Number(readFileSync(STARTED, 'utf8')) === process.ppid;
  if (!startedHere) return runNow(timeoutMs);
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(RESULT)) {
    if (Date.now() > deadline)
      throw new Error(`The benchmarks' smoke run did not end within ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const run = JSON.parse(readFileSync(RESULT, 'utf8')) as BenchSmokeRun;
  // Read once: a rerun of the test (watch mode) runs the benchmarks again rather than reading it twice.
  rmSync(STARTED);
  return run;
}

function runNow(timeoutMs: number): Promise<BenchSmokeRun> {
  const [command, ...args] = COMMAND;
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: ENV, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}
