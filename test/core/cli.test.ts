import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import type { TestWorkspace } from '../support/core';
import { queuedRows, workspace } from '../support/core';
import { openStore } from '../../main/store';
import { compileCacheDir } from '../../main/config/compile-cache';
import { defaultDataDir } from '../../main/config/data-dir';
import { CLI, profileSetArgs, runCli, runCliWith } from '../support/cli';
import { englishOn } from '../support/english-leaks';
import { sha256Hex, startTestSandbox } from '../support/sandbox';

let ws: TestWorkspace;
beforeEach(() => {
  ws = workspace('evidence-cli-');
});
afterEach(() => ws.cleanup());

const cli = (args: string[], input?: string) => runCli(ws.dataDir, args, input);
const certifyArgs = ['--event-type', 'DOCUMENT_SIGNED', '--asset-type', 'document'];

describe('evidence-desk CLI', () => {
  it('certifies files and waits until they are anchored, with machine-readable output', async () => {
    const [a, b] = ws.files({ 'a.pdf': 'first', 'b.pdf': 'second' });
    const result = await cli(['certify', a!, b!, ...certifyArgs, '--wait', '--json']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as {
      certifications: { state: string; verification: string; file: string }[];
      problems: unknown[];
    };
    expect(output.problems).toEqual([]);
    expect(output.certifications.map((c) => [c.file, c.state, c.verification])).toEqual([
      [a, 'anchored', 'verified'],
      [b, 'anchored', 'verified'],
    ]);
    expect(result.stderr.match(/hashed 2 of 2 files \(100%\)/g)).toHaveLength(1);
    expect(result.stderr).not.toMatch(/hashed 0 of 0/);
    // --wait says how the wait goes, a line per change when not on a terminal.
    expect(result.stderr).toMatch(/^waiting for anchoring: (queued|sending|pending) 2$/m);
    expect(result.stderr).toMatch(/^waiting for anchoring: anchored 2$/m);

    const verified = await cli(['verify', a!, '--json']);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({
      verified: true,
      certifications: [{ check: { verification: 'verified' } }],
    });
    const [stranger] = ws.files({ 'never-certified.pdf': 'unknown' });
    expect((await cli(['verify', stranger!])).code).toBe(1);

    const status = await cli(['status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: { id: 'embedded', demo: true },
      counts: { anchored: 2 },
    });
  });

  it('names content that is already certified, skips it, and certifies it again only with --again', async () => {
    const [original] = ws.files({ 'contract.pdf': 'the signed contract' });
    const [copy] = ws.files({ 'copy of contract.pdf': 'the signed contract' });
    expect((await cli(['certify', original!, ...certifyArgs, '--wait'])).code).toBe(0);

    const again = await cli(['certify', copy!, ...certifyArgs, '--json']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      /already certified: .*copy of contract\.pdf \(as contract\.pdf on \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, certification 1\); --again certifies it once more/,
    );
    const output = JSON.parse(again.stdout) as {
      certifications: unknown[];
      already_certified: { path: string; certification_id: number; state: string }[];
    };
    expect(output.certifications).toEqual([]);
    expect(output.already_certified).toMatchObject([{ path: copy, certification_id: 1, state: 'anchored' }]);

    const forced = await cli(['certify', copy!, ...certifyArgs, '--again']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/queued 1 file\b/);
    expect(forced.stderr).not.toMatch(/already certified/);
  }, 60_000);

  it('with --json, says what went wrong as JSON on stdout too, and counts in words', async () => {
    const usage = await cli(['status', '--bogus', '--json']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toMatchObject({ error: { code: 'usage' }, exit_code: 2 });
    const missing = await cli(['verify', join(ws.dir, 'missing.pdf'), '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({
      error: { code: 'not_found', message: expect.stringMatching(/missing\.pdf does not exist/) },
      exit_code: 1,
    });
    const [one] = ws.files({ 'one.pdf': 'one' });
    const certified = await cli(['certify', one!, ...certifyArgs]);
    expect(certified.stderr).toMatch(/^queued 1 file$/m);
    expect(certified.stderr).not.toContain('(s)');
  });

  it('gives up waiting after --timeout with exit 4, leaving the work queued', async () => {
    const [doc] = ws.files({ 'slow.pdf': 'slow' });
    const impatient = await cli(['certify', doc!, ...certifyArgs, '--wait', '--timeout', '0.01']);
    expect(impatient.code).toBe(4);
    expect(impatient.stderr).toMatch(/did not settle in time; they stay queued/);
    expect((await cli(['certify', doc!, ...certifyArgs, '--wait', '--timeout', 'soon'])).code).toBe(2);
  });

  it('certifies the good files of a batch and exits 1 naming the bad ones', async () => {
    const [good] = ws.files({ 'good.pdf': 'good' });
    const result = await cli(['certify', good!, join(ws.dir, 'missing.pdf'), ...certifyArgs, '--wait']);
    expect(result.code).toBe(1);
    // In words; the code is for scripts (--json), not a suffix people read.
    expect(result.stderr).toMatch(
      /skipped .*missing\.pdf: missing\.pdf does not exist \(it may have been moved or deleted\)\.$/m,
    );
    expect(result.stderr).not.toContain('[not_found]');
    // Each row says its state and, on the sandbox's demo authority, who confirmed its time.
    expect(result.stdout).toMatch(
      /good\.pdf {2}anchored, evidence verified; time confirmed .+ by DEMO Evidence Sandbox Timestamping Authority \(RFC 3161\)$/m,
    );
  });

  it('keeps its compiled code in the person’s own cache folder, never in the shared temporary one', async () => {
    const cache = join(ws.dir, 'cache');
    const shared = join(ws.dir, 'tmp');
    mkdirSync(shared);
    // As on a person's computer: no folder chosen for it (the test run chooses one), and none of
    // Node's own switches for it (coverage sets one).
    const run = await runCliWith(ws.dataDir, ['status'], undefined, {
      XDG_CACHE_HOME: cache,
      TMPDIR: shared,
      EVIDENCE_DESK_CACHE_DIR: undefined,
      NODE_COMPILE_CACHE: undefined,
      NODE_DISABLE_COMPILE_CACHE: undefined,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(join(cache, 'Evidence Desk', 'compiled'))).not.toHaveLength(0);
    expect(existsSync(join(shared, 'node-compile-cache'))).toBe(false);
    // Where macOS and Windows keep a person's caches.
    expect(compileCacheDir({}, 'darwin')).toBe(
      join(homedir(), 'Library', 'Caches', 'Evidence Desk', 'compiled'),
    );
    const local = join(ws.dir, 'AppData', 'Local');
    expect(compileCacheDir({ LOCALAPPDATA: local }, 'win32')).toBe(
      join(local, 'Evidence Desk', 'Cache', 'compiled'),
    );
    // An empty or relative variable would put it, or the data folder, in whatever folder the
    // command runs in.
    for (const folder of ['', 'relative']) {
      expect(compileCacheDir({ XDG_CACHE_HOME: folder }, 'linux')).toBe(
        join(homedir(), '.cache', 'Evidence Desk', 'compiled'),
      );
      expect(defaultDataDir({ XDG_CONFIG_HOME: folder }, 'linux')).toBe(
        join(homedir(), '.config', 'Evidence Desk'),
      );
      expect(defaultDataDir({ APPDATA: folder }, 'win32')).toBe(
        join(homedir(), 'AppData', 'Roaming', 'Evidence Desk'),
      );
    }
  });

  it('speaks German where LANG asks for it, with nothing of the English catalogue', async () => {
    const german = (args: string[]) =>
      runCliWith(ws.dataDir, args, undefined, { LC_ALL: '', LANG: 'de_DE.UTF-8' });
    const [good] = ws.files({ 'Vertrag.pdf': 'der Vertrag' });
    const set = join(ws.dir, 'Satz');
    mkdirSync(set);
    writeFileSync(join(set, 'neu.pdf'), 'nie zertifiziert');
    const runs = [
      await german(['certify', good!, join(ws.dir, 'verschoben.pdf'), ...certifyArgs, '--wait']),
      await german(['status', '--list']),
      await german(['verify', good!]),
      await german(['--help']),
      await german(['launch']),
      await german(['verify', set]),
    ];
    const [certified, status, verified, help, unknown, setVerified] = runs;
    // The verdicts' column is as wide as the longest German verdict.
    expect(setVerified!.stdout).toMatch(/^nicht zertifiziert {2}neu\.pdf$/m);
    expect(certified!.stderr).toMatch(/übersprungen .*verschoben\.pdf: verschoben\.pdf existiert nicht/);
    expect(certified!.stderr).toMatch(/1 Datei eingereiht; 1 Datei konnte nicht zertifiziert werden/);
    expect(certified!.stdout).toMatch(
      /Vertrag\.pdf {2}verankert, Nachweis geprüft; Zeit bestätigt .+ durch DEMO .+ \(RFC 3161\)$/m,
    );
    expect(status!.stdout).toMatch(/^Profil: embedded — Demo-Sandbox \(in Evidence Desk eingebaut\) \(DEMO/m);
    expect(verified!.stdout).toMatch(/verankert: Nachweis geprüft: Eintrag 1 von 1 im Protokoll/);
    expect(help!.stdout).toMatch(/^Aufruf: evidence-desk <Befehl>/);
    expect(unknown!.stderr).toMatch(/Unbekannter Befehl „launch“\.\nMit evidence-desk --help/);
    for (const run of runs) expect(englishOn(run.stdout + run.stderr)).toEqual([]);
    // Without a language of ours, English.
    expect(
      (await runCliWith(ws.dataDir, ['launch'], undefined, { LC_ALL: '', LANG: 'fr_FR.UTF-8' })).stderr,
    ).toMatch(/Unknown command "launch"/);
  });

  it('explains bad arguments with exit code 2', async () => {
    expect(await cli(['certify', ...certifyArgs])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/at least one file/),
    });
    expect(await cli(['certify', 'x', '--asset-type', 'document'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--event-type/),
    });
    expect(await cli(['certify', 'x', '--event-type', 'signed', '--asset-type', 'document'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/upper-case words/),
    });
    expect(await cli(['launch'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Unknown command "launch"/),
    });
    // An option it does not know, said in its words (not Node's), with where to find the right one.
    expect(await cli(['status', '--bogus'])).toMatchObject({
      code: 2,
      stderr: 'evidence-desk: There is no option --bogus.\nRun evidence-desk --help for usage.\n',
    });
    expect(await cli(['status', '--state', 'lost'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--state takes one of/),
    });
  });

  it('ends quietly with exit 141 when whoever reads its output stops early (| head), never with a stack trace', async () => {
    const child = spawn(process.execPath, [...CLI, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes before the first line is written, as `| head -0` does.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });

  it('detects a queue damaged in the middle before anything writes to it, in every command', async () => {
    // A real queue of 3,000 rows with 16 KB of random bytes written over its middle.
    const store = openStore(join(ws.dataDir, 'queue.sqlite'));
    store.certifications.intake.enqueue(queuedRows(3000, (i) => String(i).padStart(64, '0')));
    store.close();
    const path = join(ws.dataDir, 'queue.sqlite');
    const bytes = readFileSync(path);
    randomBytes(16384).copy(bytes, Math.floor(bytes.length / 2 / 4096) * 4096);
    writeFileSync(path, bytes);
    const [doc] = ws.files({ 'memo.pdf': 'memo' });

    for (const args of [
      ['status'],
      ['certify', doc!, ...certifyArgs],
      ['sync', '--wait'],
      ['verify', doc!],
    ]) {
      const result = await cli(args);
      expect(result.code, args[0]).toBe(3);
      expect(result.stderr).toContain(`The queue database (${path}) is damaged`);
      expect(result.stderr).toMatch(/left untouched; move it aside/);
      expect(result.stderr).not.toMatch(/SqliteError|at .*\.ts:\d+/);
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
    // Beside it only the stamp of its last clean close, which no longer matches it.
    expect(readdirSync(ws.dataDir).filter((name) => name.startsWith('queue.sqlite'))).toEqual([
      'queue.sqlite',
      'queue.sqlite-closed',
    ]);
  });

  it('says a pipe is not a document when asked to verify one, as a failed verification (exit 1)', async () => {
    const fifo = join(ws.dir, 'pipe.pdf');
    spawnSync('mkfifo', [fifo]);
    const result = await cli(['verify', fifo]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not a regular file/);
  });

  it('certifies files whose names are not UTF-8, shows them readably, and verifies them by name', async () => {
    const folder = join(ws.dir, 'legacy export');
    mkdirSync(folder);
    // "café.txt" written by a Latin-1 system, and a name with stray bytes FF FE.
    writeFileSync(
      Buffer.concat([Buffer.from(`${folder}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]),
      'the menu',
    );
    writeFileSync(
      Buffer.concat([Buffer.from(`${folder}/`), Buffer.from([0xff, 0xfe]), Buffer.from('.pdf')]),
      'stray',
    );

    const result = await cli(['certify', folder, ...certifyArgs, '--wait', '--json']);
    expect(result.code).toBe(0);
    const { certifications } = JSON.parse(result.stdout) as {
      certifications: { file: string; asset_hash: string; state: string }[];
    };
    expect(certifications.map((c) => [c.file, c.asset_hash, c.state])).toEqual([
      [join(folder, 'café.txt'), sha256Hex('the menu'), 'anchored'],
      [join(folder, 'ÿþ.pdf'), sha256Hex('stray'), 'anchored'],
    ]);

    // Named on the command line, its bytes reach the program as U+FFFD; the file is found all the same.
    const byName = spawnSync(
      'bash',
      [
        '-c',
        `"$0" dist/main/cli.js verify "$(printf '%s/caf\\351.txt' "$1")" --data-dir "$2"`,
        process.execPath,
        folder,
        ws.dataDir,
      ],
      { encoding: 'utf8' },
    );
    expect(byName.stderr).toBe('');
    expect(byName.status).toBe(0);
    expect(byName.stdout).toMatch(/Evidence verified/);
  }, 60_000);

  it('answers status and profile show without starting the demo sandbox they do not use', async () => {
    const status = await cli(['status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/connection: not checked/);
    expect((await cli(['profile', 'show'])).code).toBe(0);
    // The sandbox keeps its database beside the queue once it runs: it never ran.
    expect(readdirSync(ws.dataDir).filter((name) => name.startsWith('embedded-sandbox'))).toEqual([]);
  });

  it('refuses a zero-byte queue instead of silently starting an empty one', async () => {
    mkdirSync(ws.dataDir, { recursive: true });
    writeFileSync(join(ws.dataDir, 'queue.sqlite'), '');
    const result = await cli(['status']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/is empty \(0 bytes\)/);
    expect(readFileSync(join(ws.dataDir, 'queue.sqlite')).length).toBe(0);
  });

  it('reports a corrupt queue with exit code 3 and leaves it alone', async () => {
    mkdirSync(ws.dataDir, { recursive: true });
    writeFileSync(
      join(ws.dataDir, 'queue.sqlite'),
      'not a database at all, but some bytes nonetheless '.repeat(100),
    );
    const result = await cli(['status']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/damaged or is not an Evidence Desk database/);
  });

  describe('with a service profile', () => {
    let sandbox: Sandbox;
    beforeEach(async () => {
      sandbox = await startTestSandbox();
    });
    afterEach(() => sandbox.stop());

    it('saves a profile with secrets read from a pipe, tests it, and never prints the secrets', async () => {
      const client = sandbox.createClient({ requireSignature: true });
      const set = await cli(
        profileSetArgs('acme-signed', sandbox, client.clientId, '--sign', '--use'),
        `${client.clientSecret}\n${client.hmacKey}\n`,
      );
      expect(set).toMatchObject({ code: 0, stdout: expect.stringMatching(/Saved profile acme-signed/) });
      // --use made it the active profile, and the output says which one is active.
      expect(set.stdout).toContain('The active profile is acme-signed.');
      expect(await cli(['profile', 'test', 'acme-signed'])).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(/Connected/),
      });
      const shown = await cli(['profile', 'show', '--json']);
      expect(JSON.parse(shown.stdout)).toMatchObject({
        active: 'acme-signed',
        secretsSet: { client_secret: true, hmac_key: true, api_secret: false },
      });
      // For people, text: which profile, which service, and whether each secret is set (never the secret).
      const told = await cli(['profile', 'show']);
      expect(told.stdout).toMatch(/^Active profile: acme-signed — Custom service\n/);
      expect(told.stdout).toContain(`service:        ${sandbox.baseUrl}`);
      expect(told.stdout).toMatch(/client secret: {2}set \(in the system keychain\)/);
      expect(told.stdout).toMatch(/signs requests: yes; signing key set/);
      for (const output of [set, shown, told])
        expect(output.stdout + output.stderr).not.toContain(client.clientSecret);

      const [doc] = ws.files({ 'signed.pdf': 'signed' });
      expect((await cli(['certify', doc!, ...certifyArgs])).code).toBe(0);
      expect(sandbox.db.prepare('SELECT COUNT(*) FROM certifications').pluck().get()).toBe(1);
    });

    it('says when the credentials are refused, with exit code 3', async () => {
      await cli(
        [
          'profile',
          'set',
          '--id',
          'wrong',
          '--base-url',
          sandbox.baseUrl,
          '--token-url',
          sandbox.tokenUrl,
          '--client-id',
          'cl_nobody',
        ],
        'cs_wrong\n',
      );
      expect(await cli(['profile', 'test', 'wrong'])).toMatchObject({
        code: 3,
        stdout: expect.stringMatching(/Not connected: The service refused the client credentials/),
      });
      expect(
        await cli(
          [
            'profile',
            'set',
            '--id',
            'Bad Id',
            '--base-url',
            'ftp://x',
            '--token-url',
            sandbox.tokenUrl,
            '--client-id',
            'c',
          ],
          'x\n',
        ),
      ).toMatchObject({ code: 2 });
    });
  });

  it('runs the sandbox from the same entry', async () => {
    expect(await cli(['sandbox', '--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/Evidence Desk sandbox/),
    });
  });
});
