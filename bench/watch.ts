import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvidenceCore } from '../main/core';
import { KeychainSecretStore } from '../main/secrets/secret-store';
import type { WatchedFolderChoices } from '../protocol/views';
import type { BenchFigure } from './figure';
import { writeSmallFiles } from './support/files';
import { sized } from './size';
import { WATCH_DEFAULTS } from '../protocol/watched-folders';

const ARRIVING = sized(1_000, 20);
const IDLE_FILES = sized(100_000, 100);
// How long the idle folder is watched; WATCH_IDLE_SECONDS shortens it for a quick run.
const IDLE_SECONDS = Number(process.env.WATCH_IDLE_SECONDS ?? sized(60));
// The settling time the latency is measured with: the floor a file waits by design.
const SETTLE_MS = 1_000;

const choices = (path: string): WatchedFolderChoices => ({
  path,
  matter: null,
  eventType: 'DOCUMENT_FILED',
  assetType: 'document',
  ...WATCH_DEFAULTS,
  method: 'events',
  settleMs: SETTLE_MS,
});

const until = async (condition: () => boolean, timeoutMs: number) => {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('the watched folder did not settle in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/**
 * Watched folders: how long after its close a file's row is queued while 1,000 files arrive
 * (median and 95th percentile, as a multiple of the settling time, which every file waits by
 * design); and the CPU a watcher spends over 100,000 idle files, as a share of one core.
 */
export async function watching(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-watch-'));
  const core = await EvidenceCore.open({
    dataDir: join(dir, 'data'),
    secrets: new KeychainSecretStore('Evidence Desk bench'),
    sync: false,
    watch: true,
  });
  try {
    const arrivals = join(dir, 'arrivals');
    mkdirSync(arrivals);
    const folder = core.watched.add(choices(arrivals));
    await until(() => core.watched.find(folder.id).status === 'watching', 30_000);
    const closedAt = new Map<string, number>();
    for (let i = 0; i < ARRIVING; i++) {
      const path = join(arrivals, `scan-${i}.pdf`);
      writeFileSync(path, `scan ${i} ${Math.random()}`);
      closedAt.set(path, Date.now());
      // About 500 a second: a copier's batch, a DMS export.
      if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const rowsOf = () =>
      core.queue.list({ limit: 100_000 }).filter((row) => row.watchedFolderId === folder.id);
    await until(() => rowsOf().length === ARRIVING, 120_000);
    const latencies = rowsOf()
      .map((row) => row.createdAt - (closedAt.get(row.filePath) as number))
      .sort((a, b) => a - b);
    const at = (share: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] as number;

    const idle = join(dir, 'idle');
    writeSmallFiles(idle, IDLE_FILES);
    const idleFolder = core.watched.add(choices(idle));
    await until(
      () => core.watched.find(idleFolder.id).status === 'watching' && core.watched.waiting === 0,
      600_000,
    );
    await until(() => core.queue.count({}) >= ARRIVING + IDLE_FILES, 600_000);
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const cpu = process.cpuUsage(cpuBefore);
    const wall = performance.now() - wallBefore;

    const latency = (name: string, value: number): BenchFigure => ({
      name: `watch: ${name} from a file's close to its row queued, ${ARRIVING.toLocaleString('en')} arriving`,
      value,
      reference: SETTLE_MS,
      unit: 'ms',
      referenceName: 'the settling time',
      failures: 0,
      target: { atMost: 2 },
    });
    return [
      latency('median', at(0.5)),
      latency('95th percentile', at(0.95)),
      {
        name: `watch: CPU over ${IDLE_FILES.toLocaleString('en')} idle files for ${IDLE_SECONDS} s`,
        value: (cpu.user + cpu.system) / 1000,
        reference: wall,
        unit: 'ms',
        referenceName: 'one core',
        failures: 0,
        target: { atMost: 0.01 },
      },
    ];
  } finally {
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
