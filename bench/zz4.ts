import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EvidenceCore } from '../main/core';
import { KeychainSecretStore } from '../main/secrets/secret-store';
const dir = '/tmp/zzsmall';
const docs = join(dir, 'docs');
if (!existsSync(docs)) {
  for (let i = 0; i < 10000; i++) {
    const f = join(docs, `folder-${Math.floor(i / 500)}`);
    if (i % 500 === 0) mkdirSync(f, { recursive: true });
    writeFileSync(join(f, `d-${i}.txt`), randomBytes(512 + (i % 8) * 512));
  }
  process.exit(0);
}
const { Session } = await import('node:inspector/promises');
const session = new Session();
session.connect();
for (let r = 0; r < 4; r++) {
  const core = await EvidenceCore.open({
    dataDir: join(dir, `data-${Date.now()}`),
    secrets: new KeychainSecretStore('x'),
    sync: false,
  });
  await new Promise((res) => setTimeout(res, 200));
  if (r === 3) {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  }
  const t = performance.now();
  await core.certify([docs], {
    asset_type: 'document',
    source_system: 'bench',
    event_type: 'DOCUMENT_FILED',
  });
  console.log('certify', (performance.now() - t).toFixed(0));
  if (r === 3) {
    const { profile } = await session.post('Profiler.stop');
    (await import('node:fs')).writeFileSync('/tmp/prof/x.cpuprofile', JSON.stringify(profile));
  }
  await core.close();
}
