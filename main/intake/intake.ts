import type { Batch } from '../../protocol/certification-request';
import type { IntakeProgress } from '../../protocol/views';
import type { Identity } from '../config/identity';
import type { HashPool } from '../hashing/hash-pool';
import type { Logger } from '../logging/logger';
import type { QueueIntake } from '../store';
import type { IntakeReport } from './certify-paths';
import { certifyPaths } from './certify-paths';

export interface IntakeServiceDeps {
  queue: QueueIntake;
  pool: HashPool;
  log: Logger;
  activeProfileId(): string;
  /** Who certifies: the computer's login, and the person's name and firm. */
  identity(): Identity;
  /** Sending is woken as rows are written. */
  wake(): void;
  /** The rows just queued are gathered under one timestamp request. */
  sealBatch(profileId: string): Promise<void>;
  onProgress(progress: IntakeProgress): void;
}

/** Certifying: files hashed and queued as one batch, then sending woken and the batch's time asked for. */
export class IntakeService {
  constructor(private readonly deps: IntakeServiceDeps) {}

  /** Hashes and queues; content already certified here is reported instead, unless `again`. */
  async certify(
    paths: readonly string[],
    batch: Batch,
    { again = false }: { again?: boolean } = {},
  ): Promise<IntakeReport> {
    const { deps } = this;
    const report = await certifyPaths(paths, batch, {
      again,
      queue: deps.queue,
      pool: deps.pool,
      profileId: deps.activeProfileId(),
      identity: deps.identity(),
      onQueued: () => deps.wake(),
      onProgress: deps.onProgress,
    });
    if (report.queued.length) await this.afterQueued();
    deps.log.log('info', 'intake.finished', {
      queued: report.queued.length,
      problems: report.problems.map((problem) => problem.code),
      alreadyCertified: report.alreadyCertified.length,
    });
    return report;
  }

  /** Rows were queued (here or by a watched folder): sending is woken, and the batch sealed. */
  async afterQueued(): Promise<void> {
    this.deps.wake();
    await this.deps.sealBatch(this.deps.activeProfileId()).catch((error: unknown) =>
      // The batch's rows are gathered again later; certifying never fails for the sake of a timestamp.
      this.deps.log.log('warn', 'timestamp.seal_failed', { error: (error as Error).message }),
    );
  }
}
