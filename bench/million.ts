import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchFigure } from './figure';
import { anchorAll } from './support/anchored';
import { writeSmallFiles } from './support/files';
import { drive } from './support/load';
import { removeBeside } from './support/processes';
import type { SandboxInfo } from './support/sandbox';
import { accessToken, freshCreation, serveSandbox } from './support/sandbox';
import { sized } from './size';
import { benchScript } from './support/bench-scripts';

// At the smoke run's size (a five-hundredth), a tenth again: every document is sent through a sandbox.
const FRACTION = Number(process.env.BENCH_SCALE ?? 1) < 0.01 ? 0.1 : 1;
const SIZES = [sized(100_000 * FRACTION, 20), sized(1_000_000 * FRACTION, 200)] as const;
const CONNECTIONS = 8;

interface StepRun {
  ms: number;
  heldMb: number;
  rssMb: number;
  /** Processor time of the step's process, its threads included (both halves of a killed send). */
  cpuMs: number;
  [fact: string]: unknown;
}

const STEPS = ['intake', 'sending', 'register', 'kit', 'check'] as const;
type Step = (typeof STEPS)[number];
const WORDS: Record<Step, string> = {
  intake: 'hash and queue (the quicker of two)',
  sending: 'send to the sandbox (killed halfway at the larger size, then resumed)',
  register: 'write the register (CSV)',
  kit: 'save a receipts-only kit',
  check: 'check the set against the register (the quicker of two)',
};

/**
 * A production of 100,000 small documents and one of 1,000,000, end to end: hashed and queued, sent
 * to the sandbox, then (anchored as the sandbox would answer) its register written, a receipts-only
 * kit saved and the set checked against the register. Each step runs in a process of its own; each
 * figure is the larger production's against the smaller's: ten times the documents should take at
 * most 11 times as long, and hold at most 1.5 times the memory. At the larger size the sending is
 * killed halfway and resumed: what that costs is counted in sends started again. Hashing and queueing
 * and the check run twice at each size, and the quicker of the two counts (they take about a minute
 * and a half at a million; the sending, 20 minutes, once).
 */
export async function millionDocuments(loadSeconds: number): Promise<BenchFigure[]> {
  const runs = new Map<number, Record<Step, StepRun>>();
  let resent = { again: 0, inFlight: CONNECTIONS };
  let throughput = { sending: 0, autocannon: 0 };
  // The smaller production's folder, removed while the larger one is anchored: that set-up is
  // untimed and holds one core, and removing 200,000 files took 45 s of the run's 45 minutes.
  let leftBehind: string | null = null;
  for (const size of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-million-'));
    // Where the run's time goes, the untimed set-up too: the whole run has 45 minutes.
    const took = timeSince(size);
    try {
      const docs = join(dir, 'docs');
      const data = join(dir, 'data');
      writeSmallFiles(docs, size);
      took('files written');
      // The sandbox runs from the start: the documents are queued for it, as the app would queue them.
      const sandbox = await serveSandbox();
      let intake: StepRun;
      let sending: StepRun;
      try {
        const info = JSON.stringify(sandbox.info);
        // Queued twice, the first time into a queue then removed: the quicker counts (see quicker).
        const scratch = join(dir, 'scratch-data');
        const firstIntake = await step('intake', [scratch, docs, info]);
        rmSync(scratch, { recursive: true, force: true });
        const secondIntake = await step('intake', [data, docs, info]);
        took('hashed and queued (twice)');
        for (const { queued } of [firstIntake, secondIntake])
          if (queued !== size) throw new Error(`queued ${String(queued)} of ${size}`);
        intake = quicker(firstIntake, secondIntake);
        const largest = size === SIZES[1];
        sending = await sendAll(data, info, largest ? size / 2 : null);
        took('sent');
        if (largest) {
          resent = { again: Number(sending.resent), inFlight: CONNECTIONS };
          throughput = {
            sending: size / (sending.ms / 1000),
            autocannon: await autocannonRate(
              sandbox.info,
              Math.min(loadSeconds, Math.ceil(sending.ms / 10_000)),
            ),
          };
        }
      } finally {
        await sandbox.stop();
      }
      took('sandbox stopped (and the reference load at the larger size)');
      const removed = leftBehind ? removeBeside(leftBehind) : null;
      try {
        anchorAll(join(data, 'queue.sqlite'));
      } finally {
        await removed;
      }
      leftBehind = null;
      took(
        removed
          ? 'anchored, the smaller production removed meanwhile (untimed set-up)'
          : 'anchored (untimed set-up)',
      );
      const register = join(dir, 'register.csv');
      const kit = join(dir, 'kit');
      mkdirSync(kit);
      const registered = await step('register', [data, register]);
      took('register written');
      const kitSaved = await step('kit', [data, kit]);
      took('kit saved');
      const checks = [
        await step('check', [data, docs, register]),
        await step('check', [data, docs, register]),
      ] as const;
      took('set checked (twice)');
      if (checks.some((check) => check.passed !== true)) throw new Error(`the set of ${size} did not pass`);
      runs.set(size, {
        intake,
        sending,
        register: registered,
        kit: kitSaved,
        check: quicker(...checks),
      });
      if (size === SIZES[0]) leftBehind = dir;
    } finally {
      // A run that failed leaves nothing behind, the smaller production's folder included.
      if (leftBehind !== dir) {
        for (const folder of [dir, leftBehind]) if (folder) rmSync(folder, { recursive: true, force: true });
        took('files removed');
      }
    }
  }
  const [small, large] = SIZES.map((size) => runs.get(size) as Record<Step, StepRun>) as [
    Record<Step, StepRun>,
    Record<Step, StepRun>,
  ];
  const sizes = `${SIZES[1].toLocaleString('en')} against ${SIZES[0].toLocaleString('en')} documents`;
  // Time on a shared machine varies from run to run; processor time much less. Both are said, so a
  // time ratio past its target can be told apart from work that grew.
  for (const name of STEPS)
    process.stderr.write(
      `million: ${name}: ${(large[name].ms / small[name].ms).toFixed(2)}× the time, ` +
        `${(large[name].cpuMs / small[name].cpuMs).toFixed(2)}× the processor time\n`,
    );
  const measures = [
    { what: 'time', of: (run: StepRun) => run.ms, unit: 'ms', atMost: 11 },
    { what: 'heap held', of: (run: StepRun) => run.heldMb, unit: 'MB', atMost: 1.5 },
    { what: 'peak RSS', of: (run: StepRun) => run.rssMb, unit: 'MB', atMost: 1.5 },
  ];
  const growth = (step: Step): BenchFigure[] =>
    measures.map(({ what, of, unit, atMost }) => ({
      name: `${WORDS[step]}: ${what}, ${sizes}`,
      value: of(large[step]),
      reference: of(small[step]),
      unit,
      referenceName: 'the same at a tenth of the size',
      failures: 0,
      target: { atMost },
    }));
  return [
    ...STEPS.flatMap(growth),
    {
      name: `send ${SIZES[1].toLocaleString('en')} certifications`,
      value: throughput.sending,
      reference: throughput.autocannon,
      unit: 'certifications/s',
      referenceName: `autocannon on the same route (${CONNECTIONS} connections)`,
      failures: Number(large.sending.failed ?? 0),
    },
    {
      name: 'sends started again after a kill halfway',
      value: resent.again,
      reference: resent.inFlight,
      unit: 'requests',
      referenceName: 'requests in flight at most',
      failures: 0,
      target: { atMost: 1 },
    },
  ];
}

/** Says on stderr how long each part of a size's run took, since the part before. */
function timeSince(size: number): (part: string) => void {
  let last = performance.now();
  return (part) => {
    const now = performance.now();
    process.stderr.write(
      `million: ${size.toLocaleString('en')}: ${part} in ${((now - last) / 1000).toFixed(1)} s\n`,
    );
    last = now;
  };
}

/**
 * The quicker of two runs of a step, with the larger memory of the two. Timed once, a step at a
 * million was at the machine's mercy: the same check of the same queue took 64 to 93 s across runs
 * of this benchmark, and 67 to 71 s four times in a row on one queue.
 */
function quicker(first: StepRun, second: StepRun): StepRun {
  return {
    ...(first.ms <= second.ms ? first : second),
    heldMb: Math.max(first.heldMb, second.heldMb),
    rssMb: Math.max(first.rssMb, second.rssMb),
  };
}

/** Sends everything queued; killed with SIGKILL once `killAt` are sent, then run again to the end. */
async function sendAll(data: string, sandbox: string, killAt: number | null): Promise<StepRun> {
  const started = performance.now();
  const first = await step('send', [data, sandbox], killAt);
  // Sent before the kill came (a small size sends in one go): nothing was interrupted.
  if (killAt === null || first.ms > 0) return first;
  const second = await step('send', [data, sandbox]);
  return {
    ...second,
    ms: performance.now() - started,
    heldMb: Math.max(first.heldMb, second.heldMb),
    rssMb: Math.max(first.rssMb, second.rssMb),
    cpuMs: first.cpuMs + second.cpuMs,
  };
}

/**
 * Writes out what the untimed set-up left for the disk (a million documents, a queue of gigabytes)
 * before a step is timed: the kernel writes it back in its own time, and a step timed meanwhile
 * paid for it. (Linux and macOS; elsewhere the step is timed as it comes.)
 */
function settleDisk(): void {
  if (process.platform !== 'win32') execFileSync('sync');
}

async function autocannonRate(sandbox: SandboxInfo, seconds: number): Promise<number> {
  const token = await accessToken(sandbox);
  const load = await drive(
    {
      url: `${sandbox.baseUrl}/v1/certifications`,
      method: 'POST',
      seconds,
      connections: CONNECTIONS,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      vary: freshCreation,
    },
    201,
  );
  return load.requestsPerSecond;
}

/** Runs a step in its own process and reads what it measured; `killAt` kills it once that many are sent. */
function step(name: string, args: string[], killAt: number | null = null): Promise<StepRun> {
  settleDisk();
  const started = performance.now();
  let saidUpTo = 0;
  const child = spawn(process.execPath, ['--expose-gc', benchScript('million-step'), name, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let result: StepRun | null = null;
  let killed = false;
  let cpuMs = 0;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const sent = /^sent (\d+) ([\d.]+)$/.exec(line);
    if (sent) {
      cpuMs = Number(sent[2]);
      // How fast each hundred thousand went: a rate that falls as the queue grows is work that grows.
      const count = Number(sent[1]);
      if (count >= saidUpTo + 100_000) {
        saidUpTo = count - (count % 100_000);
        process.stderr.write(
          `million: ${name}: ${count.toLocaleString('en')} sent after ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
            `${(cpuMs / 1000).toFixed(1)} s of processor\n`,
        );
      }
      if (killAt !== null && !killed && Number(sent[1]) >= killAt) {
        killed = true;
        child.kill('SIGKILL');
      }
      return;
    }
    result = JSON.parse(line) as StepRun;
  });
  return new Promise((resolve, reject) =>
    child.once('close', (code) => {
      if (killed) resolve({ ms: 0, heldMb: 0, rssMb: 0, cpuMs });
      else if (code === 0 && result) resolve(result);
      else reject(new Error(`the ${name} step exited with ${code}`));
    }),
  );
}
