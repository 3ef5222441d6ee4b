// Runs one export in its own process, so its peak memory is its own: prints {"ms", "maxRssMb"}.
// A fourth argument sets the threads drawing certificates.
import { EvidenceCore } from '../../main/core';
import { benchSecrets } from './core';

const [dataDir, out, mode, threads] = process.argv.slice(2) as [
  string,
  string,
  'kit' | 'unsealed-kit' | 'receipts',
  string | undefined,
];
const core = await EvidenceCore.open({ dataDir, secrets: benchSecrets(), sync: false });
try {
  const started = performance.now();
  const result = await core.exports.exportEvidence(
    {},
    mode === 'receipts'
      ? { dir: out, receiptsOnly: true }
      : {
          dir: out,
          zip: `${out}.zip`,
          seal: mode === 'kit',
          ...(threads ? { drawingThreads: Number(threads) } : {}),
        },
  );
  const ms = performance.now() - started;
  process.stdout.write(
    JSON.stringify({
      ms,
      certifications: result.certifications,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
} finally {
  await core.close();
}
