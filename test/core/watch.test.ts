import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import {
  appendFileSync,
  readFileSync,
  closeSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { EvidenceCore } from '../../main/core';
import type { CertificationRow, WatchedFolderChoices, WatchedFolderView } from '../../protocol/views';
import { METADATA, openCore, workspace } from '../support/core';
import type { TestWorkspace } from '../support/core';
import { CLI, runCli } from '../support/cli';
import { openStore } from '../../main/store';
import { WATCH_DEFAULTS } from '../../protocol/watched-folders';
import type { SubscribeToChanges } from '../../main/watch/change-events';

// Watched folders on the real file system (inotify through @parcel/watcher), with a real queue.
// Every check is on the queue's rows: what was certified, how often, and with which content.

const TIMING = { lookMs: 100, healthMs: 300 };
const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

let ws: TestWorkspace;
let core: EvidenceCore;

const choices = (path: string, extra: Partial<WatchedFolderChoices> = {}): WatchedFolderChoices => ({
  path,
  matter: 'ACME-7',
  eventType: METADATA.event_type,
  assetType: METADATA.asset_type,
  ...WATCH_DEFAULTS,
  method: 'events',
  settleMs: 400,
  ...extra,
});

const rowsOf = (folderId: number): CertificationRow[] =>
  core.queue.list({ limit: 100_000 }).filter((row) => row.watchedFolderId === folderId);

/** Waits until the folder's rows satisfy `done`, and the watcher has nothing left waiting. */
async function settled(folderId: number, done: (rows: CertificationRow[]) => boolean, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = rowsOf(folderId);
    if (done(rows) && core.watched.waiting === 0) return rows;
    if (Date.now() > until)
      throw new Error(`not settled: ${rows.length} rows, ${core.watched.waiting} files waiting`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * What the watcher hands on from a folder from now on: files that held still and were hashed, and
 * how many of them were new and queued.
 */
function examinedIn(path: string): { files: number; queued: number } {
  const seen = { files: 0, queued: 0 };
  const count = (folder: WatchedFolderView, files: number, queued: number) => {
    if (folder.path !== path) return;
    seen.files += files;
    seen.queued += queued;
  };
  core.watched.on('examined', count);
  onTestFinished(() => void core.watched.off('examined', count));
  return seen;
}

/**
 * Waits until the watcher has handed on at least `files` files and nothing waits (too late fails);
 * then `seen.queued` is everything it certified. A file arriving by two roads at once (a folder
 * moved in is listed while its files' events come) may be hashed twice under load, but is queued
 * once: the count that must never be exceeded is the queued one.
 */
async function examined(seen: { files: number }, files: number, timeoutMs = 30_000): Promise<void> {
  await expect
    .poll(() => seen.files >= files && core.watched.waiting === 0, { timeout: timeoutMs, interval: 50 })
    .toBe(true);
}

const folderIn = (name: string) => {
  const path = join(ws.dir, name);
  mkdirSync(path, { recursive: true });
  return path;
};

beforeAll(async () => {
  ws = workspace('evidence-watch-');
  core = await openCore(ws.dataDir, { watch: true, watchTiming: TIMING, sync: false });
});
afterAll(async () => {
  await core.close();
  ws.cleanup();
});

describe('a watched folder', () => {
  it('certifies 2,000 files copied in at once, each exactly once, for its matter', async () => {
    const folder = core.watched.add(choices(folderIn('scans')));
    const seen = examinedIn(folder.path);
    const staging = folderIn('staging');
    for (let i = 0; i < 2000; i++) writeFileSync(join(staging, `scan-${i}.pdf`), `scan ${i}`);
    renameSync(staging, join(folder.path, 'batch-1'));
    const rows = await settled(folder.id, (found) => found.length >= 2000);
    await examined(seen, 2000);
    expect(seen.queued).toBe(2000);
    expect(rowsOf(folder.id)).toHaveLength(2000);
    expect(new Set(rows.map((row) => row.assetHash)).size).toBe(2000);
    expect(rows.every((row) => row.matter === 'ACME-7' && row.state === 'queued')).toBe(true);
  }, 60_000);

  it('certifies a 500 MiB file written slowly in chunks once, with its final content', async () => {
    const folder = core.watched.add(choices(folderIn('large')));
    const seen = examinedIn(folder.path);
    const path = join(folder.path, 'deposition.mp4');
    const chunk = Buffer.alloc(16 * 1024 * 1024, 7);
    const hash = createHash('sha256');
    const fd = openSync(path, 'w');
    for (let i = 0; i < 32; i++) {
      chunk[0] = i;
      writeSync(fd, chunk);
      hash.update(chunk);
      // A slow writer: pauses shorter than the settling time.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    closeSync(fd);
    const [row, ...more] = await settled(folder.id, (found) => found.length >= 1, 60_000);
    // Certified once, whole: never while it was still being written.
    await examined(seen, 1);
    expect(seen.queued).toBe(1);
    expect(more).toEqual([]);
    expect(rowsOf(folder.id)).toHaveLength(1);
    expect(row?.fileSize).toBe(512 * 1024 * 1024);
    expect(row?.assetHash).toBe(hash.digest('hex'));
  }, 90_000);

  it('certifies nothing new when 500 files are renamed in a burst', async () => {
    const folder = core.watched.add(choices(folderIn('renames')));
    for (let i = 0; i < 500; i++) writeFileSync(join(folder.path, `draft-${i}.docx`), `draft ${i}`);
    await settled(folder.id, (found) => found.length === 500);
    const seen = examinedIn(folder.path);
    mkdirSync(join(folder.path, 'final'));
    for (let i = 0; i < 500; i++)
      renameSync(join(folder.path, `draft-${i}.docx`), join(folder.path, 'final', `final-${i}.docx`));
    // Each renamed file is looked at once under its new name, and none of them is new content.
    await examined(seen, 500);
    expect(seen.queued).toBe(0);
    expect(rowsOf(folder.id)).toHaveLength(500);
  }, 60_000);

  it('certifies a Word-style save (temporary file, lock file, rename over the original) as a change after certification', async () => {
    const folder = core.watched.add(choices(folderIn('office')));
    const original = join(folder.path, 'Contract.docx');
    writeFileSync(original, 'version 1');
    const [first] = await settled(folder.id, (found) => found.length === 1);
    const seen = examinedIn(folder.path);
    // What Word does: a lock file beside the document, the new version into a temporary file,
    // then the temporary file renamed over the document.
    writeFileSync(join(folder.path, '~$Contract.docx'), 'owner');
    writeFileSync(join(folder.path, '~WRL0001.tmp'), 'version 2');
    renameSync(join(folder.path, '~WRL0001.tmp'), original);
    rmSync(join(folder.path, '~$Contract.docx'));
    const rows = await settled(folder.id, (found) => found.length === 2);
    // The document once, as changed; the lock and temporary files never.
    await examined(seen, 1);
    expect(seen.queued).toBe(1);
    expect(rowsOf(folder.id).map((row) => [row.fileName, row.assetHash])).toEqual([
      ['Contract.docx', sha256('version 2')],
      ['Contract.docx', sha256('version 1')],
    ]);
    expect(rows.find((row) => row.assetHash === sha256('version 2'))?.followsId).toBe(first?.id);
    // The register links the two, and names the folder.
    const register = join(ws.dir, 'office-register.csv');
    await core.exports.exportRegister({ search: 'Contract.docx' }, register);
    const lines = readFileSync(register, 'utf8').split('\r\n');
    expect(lines[0]).toMatch(/,Watched folder,Changed after certification,/);
    expect(lines.find((line) => line.includes(sha256('version 2')))).toMatch(
      new RegExp(
        `,${folder.path},changed after the certification queued of [^,]+ \\(SHA-256 ${sha256('version 1')}\\),DOCUMENT_SIGNED,document$`,
      ),
    );
  }, 60_000);

  it('says a deleted folder is missing, and catches up when it is made again', async () => {
    const path = folderIn('comes-and-goes');
    const folder = core.watched.add(choices(path));
    writeFileSync(join(path, 'one.pdf'), 'one');
    await settled(folder.id, (found) => found.length === 1);
    rmSync(path, { recursive: true });
    await until(() => core.watched.find(folder.id).status === 'unavailable');
    expect(core.watched.find(folder.id).problem).toMatchObject({ key: 'watch.folderMissing' });
    // Scripts see it too: `watch list` exits 1, with --json as without (docs/core.md).
    for (const json of [[], ['--json']]) {
      const listed = await runCli(ws.dataDir, ['watch', 'list', ...json]);
      expect(listed.code, json.join()).toBe(1);
    }
    mkdirSync(path);
    writeFileSync(join(path, 'two.pdf'), 'two');
    // The same content as before comes back too: certified once, already.
    writeFileSync(join(path, 'one again.pdf'), 'one');
    const rows = await settled(folder.id, (found) => found.length === 2);
    expect(rows.map((row) => row.fileName).sort()).toEqual(['one.pdf', 'two.pdf']);
    expect(core.watched.find(folder.id).status).toBe('watching');
  }, 60_000);

  it('polls a folder where change events do not come (a network share), and says so', async () => {
    const folder = core.watched.add(choices(folderIn('share'), { method: 'poll', pollSeconds: 5 }));
    await until(() => core.watched.find(folder.id).status === 'watching');
    expect(core.watched.find(folder.id).polled).toBe(true);
    writeFileSync(join(folder.path, 'scan.pdf'), 'scanned on the copier');
    const [row] = await settled(folder.id, (found) => found.length === 1);
    expect(row?.assetHash).toBe(sha256('scanned on the copier'));
  }, 30_000);

  it('finds files added or changed while it was not watching', async () => {
    const path = folderIn('while-closed');
    const folder = core.watched.add(choices(path));
    writeFileSync(join(path, 'before.pdf'), 'before');
    await settled(folder.id, (found) => found.length === 1);
    await core.watched.stop();
    writeFileSync(join(path, 'during.pdf'), 'during');
    appendFileSync(join(path, 'before.pdf'), ' and after');
    await core.watched.start();
    const rows = await settled(folder.id, (found) => found.length === 3);
    expect(rows.map((row) => row.assetHash).sort()).toEqual(
      [sha256('before'), sha256('before and after'), sha256('during')].sort(),
    );
  }, 60_000);

  it('finds a file whose change event the system lost, once the folder is listed again after the others', async () => {
    // A stand-in for the system's events that loses one file's, as @parcel/watcher 2.6.0 does now
    // and then in a burst (it cannot be made to, here): the other files still come through it.
    const { subscribe } = await import('@parcel/watcher');
    const losing: SubscribeToChanges = (dir, onEvents) =>
      subscribe(dir, (error, events) =>
        onEvents(
          error,
          events.filter((event) => !event.path.endsWith('lost.pdf')),
        ),
      );
    const lossyWs = workspace('evidence-watch-lossy-');
    const lossy = await openCore(lossyWs.dataDir, {
      watch: true,
      sync: false,
      watchTiming: { ...TIMING, relistMs: 1_000 },
      watchEvents: losing,
    });
    try {
      const path = folderIn('lossy');
      const folder = lossy.watched.add(choices(path));
      await expect.poll(() => lossy.watched.find(folder.id).status).toBe('watching');
      writeFileSync(join(path, 'kept.pdf'), 'kept');
      writeFileSync(join(path, 'lost.pdf'), 'lost');
      await expect
        .poll(
          () =>
            lossy.queue
              .list({ limit: 10 })
              .map((row) => row.fileName)
              .sort(),
          { timeout: 15_000 },
        )
        .toEqual(['kept.pdf', 'lost.pdf']);
    } finally {
      await lossy.close();
      lossyWs.cleanup();
    }
  }, 30_000);

  it('certifies nothing again that a `certify` in another process already certified in the folder', async () => {
    // The folder is certified from the command line first, then watched: its catch-up finds every
    // file, and each content is already certified, so the watcher only notes them as seen.
    const path = folderIn('shared');
    for (let i = 0; i < 300; i++) writeFileSync(join(path, `exhibit-${i}.pdf`), `exhibit ${i}`);
    const run = await runCli(ws.dataDir, [
      'certify',
      path,
      '--event-type',
      METADATA.event_type,
      '--asset-type',
      METADATA.asset_type,
    ]);
    expect(run.code).toBe(0);
    const seen = examinedIn(path);
    const folder = core.watched.add(choices(path, { settleMs: 100 }));
    await until(() => core.watched.find(folder.id).status === 'watching');
    await settled(folder.id, () => true);
    writeFileSync(join(path, 'exhibit-new.pdf'), 'a new exhibit');
    await settled(folder.id, (rows) => rows.length === 1);
    // The catch-up's 300, each noted as seen, and the new one: each looked at once, one queued.
    await examined(seen, 301);
    expect(seen.queued).toBe(1);
    const all = core.queue.list({ limit: 100_000 }).filter((row) => row.filePath.startsWith(path));
    expect(all).toHaveLength(301);
    expect(rowsOf(folder.id).map((row) => row.fileName)).toEqual(['exhibit-new.pdf']);
  }, 60_000);
});

describe('content another process certifies at the same moment', () => {
  it('is written once: the check is made again, holding the write lock, as the rows are written', () => {
    // Two connections to one queue file, as the app and `certify` are. `certify` has hashed the
    // files and found them not certified yet; the app's watched folder writes them first.
    const file = join(ws.dataDir, 'queue.sqlite');
    const certifying = openStore(file);
    const watching = openStore(file);
    try {
      const items = Array.from({ length: 3 }, (_, i) => ({
        profileId: core.activeProfileId,
        filePath: join(ws.dir, 'race', `exhibit-${i}.pdf`),
        fileName: `exhibit-${i}.pdf`,
        fileSize: 9,
        assetHash: sha256(`raced exhibit ${i}`),
        assetType: METADATA.asset_type,
        sourceSystem: 'evidence-desk',
        eventType: METADATA.event_type,
      }));
      expect(
        certifying.certifications.byContent.firstLiveIdsByHash(
          core.activeProfileId,
          items.map((item) => item.assetHash),
        ).size,
      ).toBe(0);
      const first = watching.certifications.intake.enqueueUncertified(items.slice(0, 2));
      const second = certifying.certifications.intake.enqueueUncertified(items);
      expect(second.queued.map((row) => row.fileName)).toEqual(['exhibit-2.pdf']);
      expect(second.earlier.map((row) => row?.id ?? null)).toEqual([
        ...first.queued.map((row) => row.id),
        null,
      ]);
    } finally {
      certifying.close();
      watching.close();
    }
  });
});

describe('evidence-desk watch', () => {
  it('loses nothing and certifies nothing twice when SIGKILLed in the middle of an intake', async () => {
    const path = folderIn('killed');
    const dataDir = join(ws.dir, 'cli-data');
    const added = await runCli(dataDir, [
      'watch',
      'add',
      path,
      '--event-type',
      METADATA.event_type,
      '--asset-type',
      METADATA.asset_type,
      '--settle',
      '0.2',
    ]);
    expect(added.code).toBe(0);
    // The app's view of the same queue, not watching itself.
    const app = await openCore(dataDir, { sync: false });
    try {
      const count = () => app.queue.list({ limit: 100_000 }).length;
      let watcher = startWatching(dataDir);
      for (let i = 0; i < 1500; i++) writeFileSync(join(path, `page-${i}.tif`), `page ${i}`);
      await until(() => count() > 0, 30_000);
      expect(count()).toBeLessThan(1500);
      watcher.kill('SIGKILL');
      await once(watcher, 'exit');
      watcher = startWatching(dataDir);
      await until(() => count() === 1500, 30_000);
      // Ctrl-C stops it cleanly; whatever it was still going to queue, it has queued once it exits.
      watcher.kill('SIGINT');
      const [code] = (await once(watcher, 'exit')) as [number];
      const rows = app.queue.list({ limit: 100_000 });
      expect(rows).toHaveLength(1500);
      expect(new Set(rows.map((row) => row.assetHash)).size).toBe(1500);
      expect(code).toBe(0);
      expect(saidBy.get(watcher)?.join('')).toMatch(/^Watching 1 folder; Ctrl-C stops\.$/m);
      const list = await runCli(dataDir, ['watch', 'list']);
      expect(list.stdout).toMatch(/^1 {2}.*killed {2}\[watching by change events\]/m);
      // Paused, it says so whatever the watcher last said.
      expect((await runCli(dataDir, ['watch', 'pause', '1'])).code).toBe(0);
      expect((await runCli(dataDir, ['watch', 'list'])).stdout).toMatch(/^1 {2}.*killed {2}\[paused\]/m);
    } finally {
      await app.close();
    }
  }, 90_000);
});

/** What each watcher said on stderr. */
const saidBy = new WeakMap<ChildProcess, string[]>();

/** `evidence-desk watch` in the foreground, as a headless machine runs it. */
function startWatching(dataDir: string): ChildProcess {
  const watcher = spawn(process.execPath, [...CLI, 'watch', '--data-dir', dataDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
  });
  const said: string[] = [];
  watcher.stderr?.on('data', (chunk: Buffer) => said.push(chunk.toString()));
  saidBy.set(watcher, said);
  return watcher;
}

async function until(condition: () => boolean, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
