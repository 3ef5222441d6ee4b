import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreOptions } from '../../main/core';
import type { ServiceProfile } from '../../protocol/profiles';
import type { NewCertification } from '../../main/store';
import { EvidenceCore } from '../../main/core';
import { embeddedSandbox } from '../../sandbox/embedded';
import type { SandboxOptions } from '../../sandbox/server';
import { KeychainSecretStore } from '../../main/secrets/secret-store';

export const METADATA = {
  asset_type: 'document',
  source_system: 'evidence-desk-tests',
  event_type: 'DOCUMENT_SIGNED',
};

export interface TestWorkspace {
  dir: string;
  dataDir: string;
  /** Writes files under the workspace and returns their paths. */
  files(contents: Record<string, string | Buffer>): string[];
  cleanup(): void;
}

export function workspace(prefix = 'evidence-core-'): TestWorkspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const dataDir = join(dir, 'data');
  return {
    dir,
    dataDir,
    files(contents) {
      return Object.entries(contents).map(([name, content]) => {
        const path = join(dir, 'docs', name);
        mkdirSync(join(path, '..'), { recursive: true });
        writeFileSync(path, content);
        return path;
      });
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The keychain service the tests' cores keep secrets under: one per test process, because files run
 * side by side and several save a profile of the same id with secrets of their own.
 */
export const TEST_KEYCHAIN_SERVICE = `Evidence Desk tests ${process.pid}`;

/** What a test may set of a core: the core's options, and the embedded sandbox's (faults, intervals). */
export type TestCoreOptions = Partial<CoreOptions> & { embeddedSandbox?: SandboxOptions };

/** A core on the real keychain (a test-only service name), the real queue file, an embedded sandbox. */
export function openCore(
  dataDir: string,
  { embeddedSandbox: sandboxOptions, ...options }: TestCoreOptions = {},
): Promise<EvidenceCore> {
  return EvidenceCore.open({
    dataDir,
    secrets: new KeychainSecretStore(TEST_KEYCHAIN_SERVICE),
    startEmbedded: embeddedSandbox({ batchIntervalMs: 200, ...sandboxOptions }),
    ...options,
  });
}

/** Points a core at a sandbox through a saved service profile, its secrets in the real keychain. */
export async function useSandboxProfile(
  core: EvidenceCore,
  sandbox: {
    baseUrl: string;
    tokenUrl: string;
    createClient(): { clientId: string; clientSecret: string; apiKey?: string; apiSecret?: string };
  },
  id = 'test-sandbox',
  extra: Partial<ServiceProfile> = {},
): Promise<void> {
  const client = sandbox.createClient();
  await core.profiles.save(
    {
      id,
      kind: 'custom',
      baseUrl: sandbox.baseUrl,
      tokenUrl: sandbox.tokenUrl,
      clientId: client.clientId,
      signRequests: false,
      ...extra,
      ...(extra.apiKey ? { apiKey: client.apiKey } : {}),
    },
    { client_secret: client.clientSecret, ...(extra.apiKey ? { api_secret: client.apiSecret } : {}) },
  );
  await core.profiles.use(id);
}

export function manyFiles(ws: TestWorkspace, count: number): string[] {
  return ws.files(
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        `file-${String(i).padStart(4, '0')}.txt`,
        `document number ${i}`,
      ]),
    ),
  );
}

/**
 * Every file the app wrote in its data folder (queue, its WAL, logs, window state…), read as raw
 * bytes, with the names of those that contain any of the secrets.
 */
export function filesHoldingSecrets(
  dataDir: string,
  secrets: readonly string[],
): { files: string[]; holding: string[] } {
  const files = readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  const holding = files.filter((file) => {
    const bytes = readFileSync(file).toString('latin1');
    return secrets.some((secret) => bytes.includes(secret));
  });
  return { files: files.map((file) => file.slice(dataDir.length + 1)), holding };
}

/**
 * `count` queued certifications of `/docs/N.pdf` in the embedded profile, for writing straight to
 * a store: tests that need a large queue (certifying them would take minutes).
 */
export function queuedRows(count: number, hashOf: (i: number) => string): NewCertification[] {
  return Array.from({ length: count }, (_, i) => ({
    profileId: 'embedded',
    filePath: `/docs/${i}.pdf`,
    fileName: `${i}.pdf`,
    fileSize: 1,
    assetHash: hashOf(i),
    assetType: 'document',
    sourceSystem: 'tests',
    eventType: 'DOCUMENT_FILED',
  }));
}
