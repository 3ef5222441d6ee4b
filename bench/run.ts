// One command for every benchmark: `npm run bench`. Each figure is printed as a ratio to a
// reference measured in the same run, because absolute timings on a shared machine are noise.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { BenchFigure } from './figure';
import { ratioOf } from './figure';
import { sized } from './size';

const seconds = Number(process.env.BENCH_SECONDS ?? sized(5));
// Each benchmark is loaded only when it runs: autocannon (and its WebAssembly histogram) stays out
// of the process of a benchmark that does not load the sandbox with it.
const all: Record<string, () => Promise<BenchFigure | BenchFigure[]>> = {
  'sandbox-create': async () => (await import('./sandbox-create')).sandboxCreationThroughput(seconds),
  'hash-large-file': async () => (await import('./hash-large-file')).largeFileHashing(),
  'hash-small-files': async () => (await import('./hash-small-files')).smallFilesIntake(),
  drain: async () => (await import('./drain')).queueDrain(),
  'certify-wait': async () => (await import('./certify-wait')).certifyWaitScaling(),
  'intake-with-listeners': async () => (await import('./intake-with-listeners')).intakeWithListeners(),
  'hostile-load': async () => (await import('./hostile-load')).hostileLoad(),
  export: async () => (await import('./export-kit')).exportKit(),
  'verify-set': async () => (await import('./verify-set')).setVerification(),
  watch: async () => (await import('./watch')).watching(),
  'cli-start': async () => (await import('./cli-start')).cliStart(),
  'renew-records': async () => (await import('./renew-records')).renewRecords(),
  production: async () => (await import('./production')).realisticProduction(),
  desk: async () => (await import('./desk-at-a-million')).deskAtAMillion(),
  million: async () => (await import('./million')).millionDocuments(seconds),
};
// A million rows, run only when named (`npm run bench -- million desk`, up to 45 minutes), or at
// the smoke run's tiny size with the rest.
const ON_ITS_OWN = process.env.BENCH_SCALE ? [] : ['million', 'desk'];
// `npm run bench -- drain hash-large-file` runs only those.
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in all));
if (unknown.length)
  throw new Error(`Unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(all).join(', ')}.`);
const names = chosen.length ? chosen : Object.keys(all).filter((name) => !ON_ITS_OWN.includes(name));

const figures: BenchFigure[] = [];
for (const name of names) {
  process.stdout.write(`— ${name}\n`);
  const run = all[name] as () => Promise<BenchFigure | BenchFigure[]>;
  for (const figure of [await run()].flat()) {
    figures.push(figure);
    const ratio = ratioOf(figure);
    const verdict =
      figure.failures > 0 ? `INVALID (${figure.failures} failed requests)` : targetVerdict(figure, ratio);
    process.stdout.write(
      `${figure.name}: ${ratio.toFixed(3)} × ${figure.referenceName}` +
        ` (${figure.value.toFixed(0)} vs ${figure.reference.toFixed(0)} ${figure.unit}) ${verdict}\n`,
    );
  }
}
// A scaled-down run (BENCH_SCALE, as npm test runs it) checks that each runs; its figures are not kept.
if (!process.env.BENCH_SCALE) {
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    `bench/results/${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
    JSON.stringify(figures, null, 2),
  );
}
if (figures.some((f) => f.failures > 0)) process.exitCode = 1;
// The desk benchmark's Chromium is shared by the e2e harness and ended only with its process.
process.exit();

function targetVerdict(figure: BenchFigure, ratio: number): string {
  if (!figure.target) return '';
  const { atLeast, atMost } = figure.target;
  const met = (atLeast === undefined || ratio >= atLeast) && (atMost === undefined || ratio <= atMost);
  return `${met ? 'meets' : 'MISSES'} target ${atLeast !== undefined ? `≥ ${atLeast}` : `≤ ${atMost}`}`;
}
