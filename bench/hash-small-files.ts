import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvidenceCore } from '../main/core';
import { KeychainSecretStore } from '../main/secrets/secret-store';
import type { BenchFigure } from './figure';
import { writeSmallFiles } from './support/files';
import { bestOfPairs, timeCommand, timeIt } from './support/timing';
import { sized } from './size';

const FILES = sized(10_000, 50);

/**
 * Hashing and queueing 10,000 small files (a folder dropped on the app), as a multiple of the
 * time `sha256sum` takes over the same files: on a running core (warm), and as the first drop on a
 * core just opened (cold). Lower is better; the target is at most 1× (two cores against one).
 */
export async function smallFilesIntake(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-small-'));
  const docs = join(dir, 'docs');
  try {
    writeSmallFiles(docs, FILES);
    await timeCommand(`cat $(find '${docs}' -type f) > /dev/null`);
    const metadata = { asset_type: 'document', source_system: 'bench', event_type: 'DOCUMENT_FILED' };
    const sha256sum = () => timeCommand(`find '${docs}' -type f -print0 | xargs -0 sha256sum > /dev/null`);
    // Cold: the first drop on a core just opened (its workers just started, nothing compiled yet).
    const coldCore = await EvidenceCore.open({
      dataDir: join(dir, 'cold'),
      secrets: new KeychainSecretStore('Evidence Desk bench'),
      sync: false,
    });
    let cold: number;
    try {
      cold = await timeIt(() => coldCore.certify([docs], metadata));
    } finally {
      await coldCore.close();
    }
    const coldReference = await sha256sum();
    // A running app: one core whose worker pool lives on, the folder dropped again each run
    // (the queue grows, as it would). Opened before the clock starts: only hashing and queueing are timed.
    const core = await EvidenceCore.open({
      dataDir: join(dir, 'data'),
      secrets: new KeychainSecretStore('Evidence Desk bench'),
      sync: false,
    });
    let best;
    try {
      best = await bestOfPairs(
        3,
        () =>
          timeIt(async () => {
            // The same folder each run: certified again on purpose, or it would be skipped as already certified.
            const report = await core.certify([docs], metadata, { again: true });
            if (report.queued.length !== FILES) throw new Error(`queued ${report.queued.length} of ${FILES}`);
          }),
        sha256sum,
      );
    } finally {
      await core.close();
    }
    const figure = (name: string, value: number, reference: number): BenchFigure => ({
      name,
      value,
      reference,
      unit: 'ms',
      referenceName: 'sha256sum over the same files',
      failures: 0,
      target: { atMost: 1 },
    });
    return [
      figure(`hash and queue ${FILES.toLocaleString('en')} small files`, best.measured, best.reference),
      figure(`the same, as the first drop after start`, cold, coldReference),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
