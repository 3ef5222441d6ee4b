import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { EvidenceCore } from '../main/core';
import { openStore } from '../main/store';
import type { RegisterEntry } from '../main/evidence/custody-register';
import { writeCustodyRegister } from '../main/evidence/custody-register';
import type { CertificationRow } from '../protocol/views';
import { said } from '../protocol/said';
import { KeychainSecretStore } from '../main/secrets/secret-store';
import type { BenchFigure } from './figure';
import { writeSmallFiles } from './support/files';
import { bestOfPairs, timeCommand, timeIt } from './support/timing';
import { sized } from './size';

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
        const report = await core.verification.verifySet([production], { path: against });
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
 * each set in its own process: the most the heap grew while verifying, and what stays while the
 * report is kept (the app keeps the last one, to save it from). Flat is the target: at most 1.5×.
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
        [
          '--expose-gc',
          '--import',
          'tsx',
          'bench/support/verify-set-child.ts',
          join(dir, data),
          set,
          against,
        ],
        { encoding: 'utf8', maxBuffer: 1 << 20 },
      ),
    ) as { ms: number; passed: boolean; peakHeapGrowthMb: number; retainedMb: number };
  const usual = measured(production, register, 'memory-usual');
  const tenTimes = measured(large, largeRegister, 'memory-large');
  process.stderr.write(
    `verify-set: ${FILES} files took ${usual.ms.toFixed(0)} ms, ${LARGE} took ${tenTimes.ms.toFixed(0)} ms\n`,
  );
  const figure = (name: string, of: 'peakHeapGrowthMb' | 'retainedMb'): BenchFigure => ({
    name: `verify ${LARGE.toLocaleString('en')} files against a register: ${name}`,
    value: tenTimes[of],
    reference: usual[of],
    unit: 'MB',
    referenceName: `the same for ${FILES.toLocaleString('en')}`,
    failures: usual.passed && tenTimes.passed ? 0 : 1,
    target: { atMost: 1.5 },
  });
  return [figure('peak heap growth', 'peakHeapGrowthMb'), figure('heap kept with the report', 'retainedMb')];
}

/** A certification as a register line shows it once anchored and verified, with its timeline. */
function anchoredEntry(path: string, sha256: string, index: number): RegisterEntry {
  const at = Date.UTC(2026, 10, 2, 9) + index * 1000;
  const serviceId = serviceIdOf(sha256);
  const row = {
    matter: '2026-0142',
    fileName: path.slice(path.lastIndexOf('/') + 1),
    filePath: path,
    fileSize: 2048,
    assetHash: sha256,
    eventType: 'DOCUMENT_FILED',
    assetType: 'document',
    sourceSystem: 'dms',
    certifiedBy: 'jdoe',
    certifiedOn: 'desk-7',
    createdAt: at,
    state: 'anchored',
    serviceId,
    anchoredAt: at + 60_000,
    verification: 'verified',
    verificationMessage: said('evidence.verified', {
      entry: index + 1,
      size: 10_000,
      signedAt: new Date(at + 5_000).toISOString(),
    }),
  } as CertificationRow;
  return {
    row,
    history: [
      { state: 'queued', at, note: null },
      { state: 'submitting', at, note: null },
      { state: 'pending', at: at + 1_000, note: said('history.acceptedAs', { serviceId }) },
      { state: 'anchored', at: at + 60_000, note: row.verificationMessage },
    ],
    environment: {
      id: 'production',
      kind: 'production',
      demo: false,
      baseUrl: 'https://evidence.example.com',
    },
    watchedFolder: null,
    follows: null,
  };
}

/** Each document certified and anchored in this queue, with evidence shaped as the sandbox's (and about as long). */
function holdAnchored(
  queueFile: string,
  profileId: string,
  documents: readonly { name: string; sha256: string }[],
  production: string,
): void {
  const store = openStore(queueFile);
  try {
    const rows = store.queue.enqueue(
      documents.map((d) => ({
        profileId,
        filePath: join(production, d.name),
        fileName: d.name.slice(d.name.lastIndexOf('/') + 1),
        fileSize: 2048,
        assetHash: d.sha256,
        assetType: 'document',
        sourceSystem: 'dms',
        eventType: 'DOCUMENT_FILED',
      })),
    );
    const now = Date.now();
    store.queue.claimDue(profileId, now, rows.length);
    rows.forEach((row, index) => {
      const serviceId = serviceIdOf(row.assetHash);
      store.queue.markPending(row.id, {
        serviceId,
        serviceState: 'pending',
        rawResponse: '{}',
        nextPollAt: now,
      });
      const hex = (seed: number) => createHash('sha256').update(`${seed}`).digest('hex');
      store.queue.markAnchored(row.id, {
        serviceState: 'anchored',
        rawResponse: '{}',
        evidence: JSON.stringify({
          format: 'rfc6962-merkle-inclusion/v1',
          leaf_input: JSON.stringify({
            v: 1,
            certification_id: serviceId,
            asset_hash: row.assetHash,
            certified_at: new Date(now - 60_000).toISOString(),
          }),
          leaf_hash: hex(index),
          leaf_index: index,
          tree_size: rows.length,
          inclusion_proof: Array.from({ length: 14 }, (_, step) => hex(index * 14 + step)),
          root_hash: hex(-1),
          signed_tree_head: {
            tree_size: rows.length,
            timestamp: now - 30_000,
            root_hash: hex(-1),
            signature: 'c2lnbmVk'.repeat(11),
          },
        }),
        verification: 'verified',
        verificationMessage: said('evidence.verified', {
          entry: index + 1,
          size: rows.length,
          signedAt: new Date(now - 30_000).toISOString(),
        }),
      });
    });
  } finally {
    store.close();
  }
}

const serviceIdOf = (sha256: string) =>
  `cert_${sha256.slice(0, 8)}-${sha256.slice(8, 12)}-${sha256.slice(12, 16)}`;
