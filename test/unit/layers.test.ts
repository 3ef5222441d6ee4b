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
});
