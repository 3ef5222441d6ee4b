// Child process for benchmarks: a sandbox on a free port, its own CPU apart from the load generator.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../sandbox/server';

const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-'));
const sandbox = await startSandbox({
  dbPath: join(dir, 'sandbox.sqlite'),
  port: 0,
  // Nothing but the request path is measured: no throttling, anchoring out of the way.
  rateLimit: { max: 1_000_000_000, windowMs: 60_000 },
  batchIntervalMs: 3_600_000,
});
process.stdout.write(
  `${JSON.stringify({ baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl, client: sandbox.demoClient })}\n`,
);
// Its database goes with it: a million's is a gigabyte.
process.once(
  'SIGTERM',
  () =>
    void sandbox
      .stop()
      .finally(() => rmSync(dir, { recursive: true, force: true }))
      .then(() => process.exit(0)),
);
