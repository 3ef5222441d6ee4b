import type { CoreOptions } from '../../main/core';
import type { TsaSettings } from '../../protocol/profiles';
import { EvidenceCore } from '../../main/core';
import { KeychainSecretStore } from '../../main/secrets/secret-store';
import { join } from 'node:path';
import type { Sandbox } from '../../sandbox/server';
import { startSandbox } from '../../sandbox/server';
import type { SandboxInfo } from './sandbox';

/** A core whose active profile is the given sandbox, opened with sync off unless told otherwise. */
export async function coreOnSandbox(
  dataDir: string,
  sandbox: SandboxInfo,
  options: Partial<CoreOptions> = {},
  tsa?: TsaSettings,
): Promise<EvidenceCore> {
  const core = await EvidenceCore.open({ dataDir, secrets: benchSecrets(), sync: false, ...options });
  await core.profiles.save(
    {
      id: 'bench',
      kind: 'custom',
      baseUrl: sandbox.baseUrl,
      tokenUrl: sandbox.tokenUrl,
      clientId: sandbox.client.clientId,
      signRequests: false,
      ...(tsa ? { tsa } : {}),
    },
    { client_secret: sandbox.client.clientSecret },
  );
  await core.profiles.use('bench');
  return core;
}

export const benchSecrets = () => new KeychainSecretStore('Evidence Desk bench');

/** A sandbox in this process that anchors every 250 ms and never rate-limits: what is measured is the client. */
export function anchoringSandbox(dir: string): Promise<Sandbox> {
  return startSandbox({
    dbPath: join(dir, 'sandbox.sqlite'),
    port: 0,
    batchIntervalMs: 250,
    rateLimit: { max: 1_000_000_000, windowMs: 60_000 },
  });
}

/** Starts sending and resolves when nothing is left to send, as heard on the change stream. */
export async function sendUntilEmpty(core: EvidenceCore): Promise<void> {
  const waiting = () => {
    const { counts } = core.status();
    return counts.queued + counts.submitting > 0;
  };
  // Nothing to send (a run before this one sent it all): no change will ever be heard.
  if (!waiting()) return;
  core.sync.start();
  await new Promise<void>((resolve) => {
    const stop = core.onChanges(({ counts }) => {
      if (counts.queued + counts.submitting > 0) return;
      stop();
      resolve();
    });
  });
}
