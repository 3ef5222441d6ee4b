import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import type { EvidenceCore } from '../../main/core';
import type { IntakeProgress } from '../../main/intake/certify-paths';
import { METADATA, openCore, workspace } from '../support/core';
import type { TestWorkspace } from '../support/core';

let ws: TestWorkspace;
let core: EvidenceCore | undefined;
beforeEach(() => {
  ws = workspace();
});
afterEach(async () => {
  await core?.close();
  core = undefined;
  ws.cleanup();
});

describe('certifying on the embedded sandbox', () => {
  it('hashes files locally, queues them, and brings each to anchored with verified evidence', async () => {
    core = await openCore(ws.dataDir);
    const paths = ws.files({ 'contract.pdf': 'the contract', 'annex.txt': 'the annex' });
    const progress: IntakeProgress[] = [];
    core.on('progress', (event) => progress.push(event));
    const report = await core.certify(paths, METADATA);
    expect(progress.at(-1)).toEqual({
      kind: 'batch',
      filesDone: 2,
      filesTotal: 2,
      bytesDone: 21,
      bytesTotal: 21,
    });
    expect(report.problems).toEqual([]);
    expect(
      core.queue
        .rows(report.queued)
        .map((row) => row.assetHash)
        .sort(),
    ).toEqual(
      ['the contract', 'the annex'].map((text) => createHash('sha256').update(text).digest('hex')).sort(),
    );
    const settled = await core.sync.waitUntilSettled(report.queued, 20_000);
    for (const row of settled) {
      expect(row.state).toBe('anchored');
      expect(row.verification).toBe('verified');
      expect(row.serviceId).toMatch(/^cert_/);
      expect(JSON.parse(row.rawResponse ?? '{}')).toMatchObject({ state: 'anchored' });
      // Who certified it, and where: kept for the receipt and the custody register.
      expect(row).toMatchObject({ certifiedBy: userInfo().username, certifiedOn: hostname() });
    }
    const timeline = core.queue.details(settled[0]!.id).history.map((entry) => entry.state);
    expect(timeline).toEqual(['queued', 'submitting', 'pending', 'anchored']);
    expect(core.status().counts).toMatchObject({ anchored: 2, queued: 0, failed: 0 });

    const verification = await core.verification.verifyFile(paths[0]!);
    expect(verification.certifications).toHaveLength(1);
    expect(verification.certifications[0]!.check.verification).toBe('verified');
  });
});
