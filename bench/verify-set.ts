import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { EvidenceCore } from '../main/core';
import { writeCustodyRegister } from '../main/evidence/custody-register';
import { KeychainSecretStore } from '../main/secrets/secret-store';
import type { BenchFigure } from './figure';
import { writeSmallFiles } from './support/files';
import { anchoredEntry, holdAnchored } from './support/anchored';
import { bestOfPairs, timeCommand, timeIt } from './support/timing';
import { sized } from './size';
import { benchScript } from './support/bench-scripts';

const FILES = sized(10_000, 50);
// Ten times as many, for memory: it should not grow with the set.
const LARGE = sized(100_000, 500);

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Verifying a production of 10,000 files against a reference, as a multiple of the usual tools
 * over the same files in the same run: against our register, `sha256sum -c`; against a load file
 * with MD5 and SHA-256 (both computed in one read of each file), `md5sum -c` then `sha256sum -c`.
 * Lower is better; the target is at most 1× (two cores against one).
 */
export async function setVerification(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-set-'));
  const production = join(dir, 'production');
  try {
    writeSmallFiles(production, FILES);
    const files = filesUnder(production);
    const digests = files.map((path) => {
      const bytes = readFileSync(path);
      return {
        name: relative(production, path),
        sha256: createHash('sha256').update(bytes).digest('hex'),
        md5: createHash('md5').update(bytes).digest('hex'),
      };
    });
    // The references: a register written by `export --csv`'s own writer (every column, the
    // verification sentence and the timeline quoted), a Concordance DAT, and the manifests the
    // command-line tools check.
    const register = join(dir, 'register.csv');
    await writeCustodyRegister(
      {
        entries: () => digests.map((d, i) => anchoredEntry(join(production, d.name), d.sha256, i)),
        removals: [],
      },
      register,
    );
    const dat = join(dir, 'production.dat');
    writeFileSync(
      dat,
      [['NATIVEPATH', 'MD5HASH', 'SHA256'], ...digests.map((d) => [d.name, d.md5, d.sha256])]
        .map((fields) => fields.map((field) => `þ${field}þ`).join('\u0014'))
        .join('\r\n'),
    );
    writeFileSync(join(dir, 'sha256.txt'), digests.map((d) => `${d.sha256}  ${d.name}\n`).join(''));
    writeFileSync(join(dir, 'md5.txt'), digests.map((d) => `${d.md5}  ${d.name}\n`).join(''));
    await timeCommand(`cat $(find '${production}' -type f) > /dev/null`);

    const core = await EvidenceCore.open({
      dataDir: join(dir, 'data'),
      secrets: new KeychainSecretStore('Evidence Desk bench'),
      sync: false,
    });
    // As on the computer that certified them: the register's certifications are in the queue, with
    // their evidence, so each verified line gets the times its log signed.
    holdAnchored(join(dir, 'data', 'queue.sqlite'), core.activeProfileId, digests, production);
    const checked = (against: string) =>
      timeIt(async () => {
        const report = await core.sets.verifySet([production], { path: against });
        if (!report.summary.passed) throw new Error(`the set did not pass against ${against}`);
        const [first] = report.results;
        if (against === register && !first?.entry?.certification?.signedAt)
          throw new Error('the register was checked without the times its log signed');
      });
    try {
      // One untimed run of each: the app verifies in a process that is already running (the
      // command line's start is timed by farm-bench, not here).
      await checked(register);
      await checked(dat);
      const againstRegister = await bestOfPairs(
        3,
        () => checked(register),
        () => timeCommand(`cd '${production}' && sha256sum --quiet -c '${join(dir, 'sha256.txt')}'`),
      );
      const againstLoadFile = await bestOfPairs(
        3,
        () => checked(dat),
        () =>
          timeCommand(
            `cd '${production}' && md5sum --quiet -c '${join(dir, 'md5.txt')}' && sha256sum --quiet -c '${join(dir, 'sha256.txt')}'`,
          ),
      );
      const figure = (name: string, best: typeof againstRegister, referenceName: string): BenchFigure => ({
        name,
        value: best.measured,
        reference: best.reference,
        unit: 'ms',
        referenceName,
        failures: 0,
        target: { atMost: 1 },
      });
      return [
        ...(await memoryFigures(dir, production, register)),
        figure(
          `verify ${FILES.toLocaleString('en')} files against a register`,
          againstRegister,
          'sha256sum -c',
        ),
        figure(
          `verify ${FILES.toLocaleString('en')} files against a load file (MD5 and SHA-256)`,
          againstLoadFile,
          'md5sum -c then sha256sum -c',
        ),
      ];
    } finally {
      await core.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Memory for verifying ten times the documents (a production of 100,000 against its register),
 * each set in its own process: the most heap the check held (after full collections), and what
 * stays while the report is kept (the app keeps the last one, to save it from). Flat is the
 * target: at most 1.5×.
 */
async function memoryFigures(dir: string, production: string, register: string): Promise<BenchFigure[]> {
  const large = join(dir, 'large');
  writeSmallFiles(large, LARGE);
  const largeRegister = join(dir, 'large-register.csv');
  const files = filesUnder(large);
  await writeCustodyRegister(
    {
      entries: () =>
        files.map((path, i) =>
          anchoredEntry(path, createHash('sha256').update(readFileSync(path)).digest('hex'), i),
        ),
      removals: [],
    },
    largeRegister,
  );
  const measured = (set: string, against: string, data: string) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        ['--expose-gc', benchScript('verify-set-child'), join(dir, data), set, against, 'memory'],
        { encoding: 'utf8', maxBuffer: 1 << 20 },
      ),
    ) as { ms: number; passed: boolean; livePeakMb: number; inUsePeakMb: number; retainedMb: number };
  const usual = measured(production, register, 'memory-usual');
  const tenTimes = measured(large, largeRegister, 'memory-large');
  process.stderr.write(
    `verify-set: ${FILES} files took ${usual.ms.toFixed(0)} ms, ${LARGE} took ${tenTimes.ms.toFixed(0)} ms\n`,
  );
  const figure = (
    name: string,
    of: 'livePeakMb' | 'inUsePeakMb' | 'retainedMb',
    target: BenchFigure['target'] | null = { atMost: 1.5 },
  ): BenchFigure => ({
    name: `verify ${LARGE.toLocaleString('en')} files against a register: ${name}`,
    value: tenTimes[of],
    reference: usual[of],
    unit: 'MB',
    referenceName: `the same for ${FILES.toLocaleString('en')}`,
    failures: usual.passed && tenTimes.passed ? 0 : 1,
    ...(target ? { target } : {}),
  });
  return [
    figure('most heap held while checking', 'livePeakMb'),
    figure('heap kept with the report', 'retainedMb'),
    // For comparison, no target: the heap in use between collections, garbage included; it grows
    // with how long the check runs (and the collector's choices), not with what the check holds.
    figure('heap in use at most, garbage not yet collected', 'inUsePeakMb', null),
  ];
}
