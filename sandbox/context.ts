import type { SandboxDb } from './db';
import type { Faults, RateLimit } from './config';
import type { LogKey } from './log-key';

/** What every route of one sandbox shares. Faults are read on each use so they can change while it runs. */
export interface SandboxContext {
  db: SandboxDb;
  logKey: LogKey;
  rateLimit: RateLimit;
  faults(): Faults;
  adminToken: string;
}
