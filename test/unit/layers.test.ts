import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The process and layer boundaries are held by the linter, not by memory: a deliberate violation
// of each, linted with the project's own configuration, must be refused with its reason.
const eslint = new ESLint();

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('the layers', () => {
  it('refuse an import across each boundary, and accept one within it', async () => {
    expect(
      await refusals(
        'main/core.ts',
        "import { startSandbox } from '../sandbox/server';\nvoid startSandbox;\n",
      ),
    ).toEqual([expect.stringContaining('The core never imports the sandbox')]);
    expect(
      await refusals('protocol/views.ts', "import { openStore } from '../main/store';\nvoid openStore;\n"),
    ).toEqual([expect.stringContaining('protocol/ imports nothing of ours outside protocol/')]);
    expect(
      await refusals('main/evidence/kit.ts', "import Database from 'better-sqlite3';\nvoid Database;\n"),
    ).toEqual([expect.stringContaining('Only main/store/ may touch SQL')]);
    expect(
      await refusals(
        'renderer/src/App.tsx',
        "import { EvidenceCore } from '../../main/core';\nvoid EvidenceCore;\n",
      ),
    ).toEqual([expect.stringContaining('never main/')]);
    // A screen calls main through actions.ts or calls/, where each failure is said; never the bridge.
    expect(
      await refusals(
        'renderer/src/components/Details.tsx',
        "import { bridge } from '../bridge';\nvoid bridge;\n",
      ),
    ).toEqual([expect.stringContaining('not the bridge')]);
    expect(
      await refusals(
        'renderer/src/components/Details.tsx',
        "import { readDetails } from '../calls/reads';\nvoid readDetails;\n",
      ),
    ).toEqual([]);
    expect(await refusals('main/sync/rounds.ts', "import { app } from 'electron';\nvoid app;\n")).toEqual([
      expect.stringContaining('Only main/electron/ and preload/ may import electron'),
    ]);
    // The shells reach the core's services, not what they are built from.
    expect(
      await refusals(
        'main/cli/commands/status.ts',
        "import { openStore } from '../../store';\nvoid openStore;\n",
      ),
    ).toEqual([expect.stringContaining('The shells reach the core and its services')]);
    expect(
      await refusals(
        'main/electron/ipc.ts',
        "import { HashPool } from '../hashing/hash-pool';\nvoid HashPool;\n",
      ),
    ).toEqual([expect.stringContaining('The shells reach the core and its services')]);
    expect(
      await refusals(
        'main/cli/commands/verify.ts',
        "import { Verification } from '../../evidence/verification';\nvoid Verification;\n",
      ),
    ).toEqual([]);
    // The shells may start the sandbox; protocol/ may import itself.
    expect(
      await refusals(
        'main/cli.ts',
        "import { embeddedSandbox } from '../sandbox/embedded';\nvoid embeddedSandbox;\n",
      ),
    ).toEqual([]);
    expect(
      await refusals('protocol/views.ts', "import { LOCAL_STATES } from './states';\nvoid LOCAL_STATES;\n"),
    ).toEqual([]);
  }, 60_000);

  it('hold the core’s folders in their order: nothing below reaches up, and no two import each other', async () => {
    const upward = (folder: string) =>
      expect.stringContaining(`main/${folder}/ may import only the core's folders below it`);
    const lint = (file: string, what: string, from: string) =>
      refusals(file, `import { ${what} } from '${from}';\nvoid ${what};\n`);
    // The store at the bottom of the domain: it never imports a service built on it.
    expect(await lint('main/store/queue.ts', 'SyncEngine', '../sync/sync-engine')).toEqual([upward('store')]);
    // Two domain folders: the set check builds on evidence, so evidence never imports sets.
    expect(await lint('main/evidence/kit.ts', 'verifySet', '../sets/verify-set')).toEqual([
      upward('evidence'),
    ]);
    expect(await lint('main/sets/read-kit.ts', 'LogTrust', '../evidence/log-trust')).toEqual([]);
    // From a folder inside a folder; and the core root and the shells are above every service.
    expect(await lint('main/evidence/pdf/certificate.ts', 'SyncEngine', '../../sync/sync-engine')).toEqual([
      upward('evidence'),
    ]);
    expect(await lint('main/timestamps/timestamp-engine.ts', 'EvidenceCore', '../core')).toEqual([
      upward('timestamps'),
    ]);
    // The tools know nothing of evidence, nor of the store.
    expect(await lint('main/tools/pdf/table.ts', 'openStore', '../../store')).toEqual([upward('tools')]);
    // A folder's own modules are its own.
    expect(await lint('main/store/queue.ts', 'QueueReads', './queue-reads')).toEqual([]);
  }, 60_000);
});
