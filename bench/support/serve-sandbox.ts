// Child process for benchmarks: a sandbox on a free port, its own CPU apart from the load generator.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../sandbox/server';

const sandbox = await startSandbox({
  dbPath: join(mkdtempSync(join(tmpdir(), 'evidence-bench-')), 'sandbox.sqlite'),
  port: 0,
  // Nothing but the request path is measured: no throttling, anchoring out of the way.
  rateLimit: { max: 1_000_000_000, windowMs: 60_000 },
  batchIntervalMs: 3_600_000,
});
process.stdout.write(
  `${JSON.stringify({ baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl, client: sandbox.demoClient })}\n`,
);
process.once('SIGTERM', () => void sandbox.stop().then(() => process.exit(0)));
