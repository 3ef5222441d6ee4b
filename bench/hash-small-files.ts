import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvidenceCore } from '../main/core';
import { KeychainSecretStore } from '../main/secrets/secret-store';
import { openStore } from '../main/store';
import type { BenchFigure } from './figure';
import { writeSmallFiles } from './support/files';
import { bestOfPairs, timeCommand, timeIt } from './support/timing';
import { sized } from './size';

const FILES = sized(10_000, 50);
const HELD = sized(100_000, 500);

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
    let onFullQueue;
    try {
      // The same folder each run: certified again on purpose, or it would be skipped as already certified.
      const dropped = () =>
        timeIt(async () => {
          const report = await core.certify([docs], metadata, { again: true });
          if (report.queued.length !== FILES) throw new Error(`queued ${report.queued.length} of ${FILES}`);
        });
      best = await bestOfPairs(3, dropped, sha256sum);
      // A queue of a year's work, and folders never dropped before: each drop is a plain one, which
      // asks whether its contents are certified here already.
      holdCertifications(join(dir, 'data', 'queue.sqlite'), core.activeProfileId, HELD);
      const fresh = [1, 2, 3].map((run) => join(dir, `new-${run}`));
      for (const folder of fresh) writeSmallFiles(folder, FILES);
      let run = 0;
      onFullQueue = await bestOfPairs(
        3,
        () =>
          timeIt(async () => {
            const report = await core.certify([fresh[run++] as string], metadata);
            if (report.queued.length !== FILES) throw new Error(`queued ${report.queued.length} of ${FILES}`);
          }),
        () =>
          timeCommand(`find '${fresh[run] ?? fresh[0]}' -type f -print0 | xargs -0 sha256sum > /dev/null`),
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
      figure(
        `the same, on a queue that holds ${HELD.toLocaleString('en')} certifications`,
        onFullQueue.measured,
        onFullQueue.reference,
      ),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `count` certifications already in the queue (queued, of other contents), written as the app writes them. */
function holdCertifications(queueFile: string, profileId: string, count: number): void {
  const store = openStore(queueFile);
  try {
    for (let start = 0; start < count; start += 1000)
      store.certifications.intake.enqueue(
        Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
          profileId,
          filePath: `/cases/earlier/document-${start + i}.pdf`,
          fileName: `document-${start + i}.pdf`,
          fileSize: 2048,
          assetHash: createHash('sha256')
            .update(`earlier ${start + i}`)
            .digest('hex'),
          assetType: 'document',
          sourceSystem: 'bench',
          eventType: 'DOCUMENT_FILED',
        })),
      );
  } finally {
    store.close();
  }
}
