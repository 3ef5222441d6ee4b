import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HashPool } from '../../main/hashing/hash-pool';
import type { TestWorkspace } from '../support/core';
import { workspace } from '../support/core';
import { englishOf } from '../support/english';
import type { Said } from '../../protocol/said';

const GIB = 1024 ** 3;
let ws: TestWorkspace;
let pool: HashPool;
beforeAll(() => {
  pool = new HashPool(2);
});
afterAll(() => pool.close());
beforeEach(() => {
  ws = workspace('evidence-hashing-');
});
afterEach(() => ws.cleanup());

/** Lists what the pool's worker finds, as the intake does. */
async function expand(paths: string[]) {
  const files: { path: string; size: number }[] = [];
  const { problems } = await pool.expand(paths, (found) => {
    files.push(...found);
  });
  return { files, problems };
}

describe('a path swapped for something else after it was listed', () => {
  it('fails alone, at once, when a file became a pipe (opening it must not wait for a writer)', async () => {
    const fifo = join(ws.dir, 'swapped.pdf');
    spawnSync('mkfifo', [fifo]);
    // The pool is asked to hash it as if it had been listed as a regular file a moment before.
    const outcome = await Promise.race([
      pool.hash(fifo, undefined, 1024),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
    ]);
    expect(outcome).toMatchObject({ ok: false, code: 'not_regular_file' });
    expect(englishOf((outcome as { said: Said }).said)).toMatch(/replaced/);
    // The worker is free again for the next file.
    const [next] = ws.files({ 'next.pdf': 'next' });
    expect(await pool.hash(next!)).toMatchObject({ ok: true });
  });

  it('fails alone when a listed file became a pipe, a folder or a device, and when it changed since', async () => {
    const [listed, other] = ws.files({ 'listed.pdf': 'as listed', 'other.pdf': 'other' });
    const seen = statSync(listed!);
    const asListed = (path: string) => ({ path, size: seen.size, mtimeMs: seen.mtimeMs });
    const fifo = join(ws.dir, 'listed-then-pipe.pdf');
    spawnSync('mkfifo', [fifo]);
    const folder = join(ws.dir, 'listed-then-folder.pdf');
    mkdirSync(folder);
    for (const path of [fifo, folder, '/dev/zero'])
      expect(await pool.hash(asListed(path)), path).toMatchObject({ ok: false, code: 'not_regular_file' });
    expect(await pool.hash(asListed(other!))).toMatchObject({ ok: false, code: 'changed_while_hashing' });
    expect(await pool.hash(asListed(listed!))).toMatchObject({ ok: true, size: seen.size });
  });
});

describe('expanding dropped paths', () => {
  it('expands folders recursively, skips OS clutter, and fails every non-file alone with its reason', async () => {
    const [a, nested] = ws.files({
      'a.pdf': 'a',
      'folder/deeper/b.pdf': 'b',
      'folder/.DS_Store': 'x',
      'folder/Thumbs.db': 'x',
      'folder/desktop.ini': 'x',
      'folder/._b.pdf': 'x',
    });
    const folder = join(ws.dir, 'docs', 'folder');
    symlinkSync(folder, join(folder, 'deeper', 'back-to-folder'));
    const fifo = join(ws.dir, 'docs', 'pipe');
    spawnSync('mkfifo', [fifo]);
    const socketPath = join(ws.dir, 'docs', 'socket');
    const server = createServer().listen(socketPath);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const result = await expand([
        a!,
        folder,
        join(ws.dir, 'docs', 'missing.pdf'),
        fifo,
        socketPath,
        '/dev/null',
      ]);
      expect(result.files.map((f) => f.path)).toEqual([a, nested]);
      expect(result.problems.map((p) => [p.path.replace(ws.dir, ''), p.code])).toEqual([
        ['/docs/folder/deeper/back-to-folder', 'folder_loop'],
        ['/docs/missing.pdf', 'not_found'],
        ['/docs/pipe', 'not_regular_file'],
        ['/docs/socket', 'not_regular_file'],
        ['/dev/null', 'not_regular_file'],
      ]);
      expect(englishOf(result.problems.find((p) => p.path === fifo)?.said)).toMatch(/a pipe/);
      expect(englishOf(result.problems.find((p) => p.path === '/dev/null')?.said)).toMatch(/a device/);
    } finally {
      server.close();
    }
  });

  it('names the files of a folder given with a trailing slash, a ./ or a // as path.join writes them', async () => {
    const [deep] = ws.files({ 'sub/deep.pdf': 'd' });
    const docs = join(ws.dir, 'docs');
    for (const given of [`${docs}/`, `${ws.dir}/./docs`, `${ws.dir}//docs//`])
      expect(
        (await expand([given])).files.map((f) => f.path),
        given,
      ).toEqual([deep]);
  });

  it('reports a link that points to itself', async () => {
    const loop = join(ws.dir, 'self');
    symlinkSync(loop, loop);
    const result = await expand([loop]);
    expect(result.problems.map((p) => p.code)).toEqual(['folder_loop']);
  });
});

describe('hashing in worker threads', () => {
  it('gives the SHA-256 of each file', async () => {
    const [empty, text] = ws.files({ 'empty.txt': '', 'text.txt': 'évidence\n' });
    expect(await pool.hash(empty!)).toMatchObject({
      ok: true,
      hash: createHash('sha256').update('').digest('hex'),
      size: 0,
    });
    expect(await pool.hash(text!)).toMatchObject({
      ok: true,
      hash: createHash('sha256').update('évidence\n').digest('hex'),
    });
  });

  it('hashes a file past 2 GiB with flat memory, reporting progress as it goes', async () => {
    // Past 2^31 bytes, where sizes and offsets held in 32 bits would wrap.
    const size = 2 * GIB + 1024 * 1024;
    const big = join(ws.dir, 'sparse.bin');
    writeFileSync(big, '');
    truncateSync(big, size);
    const progress: number[] = [];
    let peakRss = 0;
    const baseline = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
    const outcome = await pool.hash(big, (done) => progress.push(done));
    clearInterval(sampler);
    // SHA-256 of 2 GiB and 1 MiB of zero bytes, computed once with `sha256sum`.
    expect(outcome).toMatchObject({
      ok: true,
      size,
      hash: 'f9c8466cdac8f598a9dbbe999b62b47c2745c7b7368cd6bfcee1b636368a9071',
    });
    expect(progress.length).toBeGreaterThan(100);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    expect(progress.at(-1)).toBeLessThanOrEqual(size);
    expect(peakRss - baseline).toBeLessThan(64 * 1024 * 1024);
  }, 60_000);

  it('reports a file that changes while it is hashed, instead of certifying it', async () => {
    const big = join(ws.dir, 'growing.bin');
    writeFileSync(big, '');
    truncateSync(big, 1 * GIB);
    let appended = false;
    const outcome = await pool.hash(big, () => {
      if (appended) return;
      appended = true;
      appendFileSync(big, 'one more line');
    });
    expect(appended).toBe(true);
    expect(outcome).toMatchObject({ ok: false, code: 'changed_while_hashing' });
    expect(englishOf((outcome as { said: Said }).said)).toMatch(/changed while it was being hashed/);
  });

  it('reports a file the user may not read', async () => {
    const [secret] = ws.files({ 'locked.pdf': 'private' });
    chmodSync(secret!, 0o000);
    if (process.getuid?.() === 0) {
      // root reads everything: ask as an unprivileged user, through the same worker, in a child process.
      chmodSync(ws.dir, 0o755);
      mkdirSync(join(ws.dir, 'docs'), { recursive: true });
      chmodSync(join(ws.dir, 'docs'), 0o755);
      const child = spawnSync(
        join(process.cwd(), 'node_modules/.bin/tsx'),
        ['test/support/hash-one.ts', secret!],
        { uid: 65534, gid: 65534, encoding: 'utf8', env: { ...process.env, HOME: '/tmp' } },
      );
      expect(child.stderr).toBe('');
      expect(JSON.parse(child.stdout)).toMatchObject({ ok: false, code: 'permission_denied' });
    } else {
      expect(await pool.hash(secret!)).toMatchObject({ ok: false, code: 'permission_denied' });
    }
  });
});
