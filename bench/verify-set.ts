import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { EvidenceCore } from '../main/core';
import { KeychainSecretStore } from '../main/secrets/secret-store';
import type { BenchFigure } from './figure';
import { writeSmallFiles } from './support/files';
import { bestOfPairs, timeCommand, timeIt } from './support/timing';
import { sized } from './size';

const FILES = sized(10_000, 50);

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
    // The references: a register as `export --csv` writes it, a Concordance DAT, and the manifests
    // the command-line tools check.
    const register = join(dir, 'register.csv');
    writeFileSync(
      register,
      `\ufeffMatter,File,Path,Size (bytes),SHA-256,State\r\n${digests
        .map((d) => `,${d.name},${join(production, d.name)},0,${d.sha256},anchored`)
        .join('\r\n')}\r\n`,
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
    const checked = (against: string) =>
      timeIt(async () => {
        const report = await core.verification.verifySet([production], { path: against });
        if (!report.summary.passed) throw new Error(`the set did not pass against ${against}`);
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
