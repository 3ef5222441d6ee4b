import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvidenceCore } from '../main/core';
import { WINDOWLESS_SHELL, createIpcInvoke, forwardCoreEvents } from '../main/ipc/handlers';
import { silentLogger } from '../main/logging/logger';
import { waitingCount } from '../protocol/states';
import type { BenchFigure } from './figure';
import { benchSecrets } from './support/core';
import { BENCH_METADATA, writeSmallFiles } from './support/files';
import { bestOfPairs, timeIt } from './support/timing';
import { sized } from './size';

const FILES = sized(100_000, 100);

/**
 * A 100,000-file drop through the path the app uses — the IPC wrapper, every event forwarded and
 * serialised as for the window, the badge and title listener — against the bare core's intake of
 * the same files, each into a fresh queue, in the same run. Target: at most 1.2×.
 */
export async function intakeWithListeners(): Promise<BenchFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-listeners-'));
  const docs = join(dir, 'docs');
  let round = 0;
  const freshCore = () =>
    EvidenceCore.open({ dataDir: join(dir, `data-${round++}`), secrets: benchSecrets(), sync: false });
  try {
    writeSmallFiles(docs, FILES);
    const best = await bestOfPairs(
      2,
      async () => {
        const core = await freshCore();
        // What the shell attaches: events to the window (structured-cloned, as IPC does) and the badge.
        const stopForwarding = forwardCoreEvents(core, (_event, payload) => structuredClone(payload));
        let badge = 0;
        const stopBadge = core.onChanges((changes) => (badge = waitingCount(changes.counts)));
        const invoke = createIpcInvoke(core, silentLogger, WINDOWLESS_SHELL);
        try {
          return await timeIt(async () => {
            const answer = await invoke('certify', { paths: [docs], metadata: BENCH_METADATA });
            if (!answer.ok || answer.value.queued !== FILES)
              throw new Error(`drop failed: ${JSON.stringify(answer)}`);
            // The drop is done for the user when the badge has counted it (the last batch is announced shortly after).
            while (badge !== FILES) await new Promise((resolve) => setTimeout(resolve, 1));
          });
        } finally {
          stopBadge();
          stopForwarding();
          await core.close();
        }
      },
      async () => {
        const core = await freshCore();
        try {
          return await timeIt(async () => {
            const report = await core.certify([docs], BENCH_METADATA);
            if (report.queued.length !== FILES) throw new Error(`queued ${report.queued.length}`);
          });
        } finally {
          await core.close();
        }
      },
    );
    return {
      name: `drop ${FILES.toLocaleString('en')} small files with the shell's listeners`,
      value: best.measured,
      reference: best.reference,
      unit: 'ms',
      referenceName: 'the bare core taking the same drop',
      failures: 0,
      target: { atMost: 1.2 },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
