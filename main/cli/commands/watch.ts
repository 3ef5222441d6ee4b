import type { EvidenceCore } from '../../core';
import type { WatchedFolderChoices, WatchedFolderView } from '../../../protocol/views';
import { WATCH_DEFAULTS } from '../../../protocol/watched-folders';
import type { Values } from '../arguments';
import { EXIT, UsageError } from '../arguments';
import { count, err, out, outJson, printable, sayOrNothing } from '../output';
import { words } from '../language';

/**
 * `watch` runs the watched folders in the foreground until Ctrl-C (or SIGTERM from systemd or
 * launchd), sending what it certifies; `watch add|list|remove|pause|resume` manage them, for the
 * app too (it takes up a change within seconds).
 */
export async function watch(core: EvidenceCore, args: string[], values: Values): Promise<number> {
  const [action, target] = args;
  switch (action) {
    case undefined:
      return watchInForeground(core);
    case 'add':
      return show(core.watched.add(choicesOf(target as string, values)), values, 'watch.added');
    case 'list':
      return list(core.watched.list(), values);
    case 'remove': {
      const folder = core.watched.find(target as string);
      core.watched.remove(folder.id);
      if (values.json) outJson({ removed: folder.id });
      else out(words('watch.removed', { path: printable(folder.path) }));
      return EXIT.ok;
    }
    case 'pause':
    case 'resume':
      return show(
        core.watched.setPaused(core.watched.find(target as string).id, action === 'pause'),
        values,
        action === 'pause' ? 'watch.paused' : 'watch.resumed',
      );
    default:
      throw new UsageError(words('usageErrors.watch'));
  }
}

function choicesOf(path: string, values: Values): WatchedFolderChoices {
  const seconds = (text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new UsageError(words('usageErrors.watchSeconds'));
    return value;
  };
  if (values.poll !== undefined && values.events) throw new UsageError(words('usageErrors.watchMethod'));
  if (!values['event-type'] || !values['asset-type'])
    throw new UsageError(words('usageErrors.watchNeedsTypes'));
  return {
    path,
    matter: values.matter ?? null,
    eventType: values['event-type'] as string,
    assetType: values['asset-type'] as string,
    include: values.include ?? null,
    subfolders: !values['no-subfolders'],
    receiptsBeside: values['receipts-beside'] ?? false,
    method: values.poll !== undefined ? 'poll' : values.events ? 'events' : WATCH_DEFAULTS.method,
    pollSeconds: Math.round(seconds(values.poll, WATCH_DEFAULTS.pollSeconds)),
    settleMs: Math.round(seconds(values.settle, WATCH_DEFAULTS.settleMs / 1000) * 1000),
  };
}

function show(
  folder: WatchedFolderView,
  values: Values,
  saying: 'watch.added' | 'watch.paused' | 'watch.resumed',
) {
  if (values.json) outJson(folder);
  else out(words(saying, { path: printable(folder.path), id: folder.id }));
  return EXIT.ok;
}

/** The folders, one a line (or as JSON); exit 1 when one is not being watched, as docs/core.md says. */
function list(folders: WatchedFolderView[], values: Values): number {
  if (values.json) outJson(folders);
  else {
    if (folders.length === 0) out(words('watch.none'));
    for (const folder of folders) out(lineOf(folder));
  }
  return folders.some((folder) => folder.status === 'unavailable') ? EXIT.failed : EXIT.ok;
}

/** One folder: its id, path, how it is doing (and why not), and its choices. */
function lineOf(folder: WatchedFolderView): string {
  const status = words(`watch.status.${folder.status}`, {
    how: words(folder.polled ? 'watch.polledEvery' : 'watch.byEvents', { seconds: folder.pollSeconds }),
  });
  const problem = folder.problem ? ` — ${sayOrNothing(folder.problem)}` : '';
  return words('watch.line', {
    id: folder.id,
    path: printable(folder.path),
    status: `${status}${problem}`,
    matter: folder.matter ?? '—',
    eventType: folder.eventType,
    assetType: folder.assetType,
    include: folder.include ?? '*',
    subfolders: words(folder.subfolders ? 'watch.withSubfolders' : 'watch.withoutSubfolders'),
  });
}

/** Watches until a signal: a line per batch queued, and per folder whose state changed. */
async function watchInForeground(core: EvidenceCore): Promise<number> {
  const folders = core.watched.list();
  const active = folders.filter((folder) => !folder.paused).length;
  err(words('watch.running', { count: active }));
  for (const folder of folders) err(lineOf(folder));
  let last = new Map(folders.map((folder) => [folder.id, lineOf(folder)]));
  const onChanged = () => {
    const now = new Map(core.watched.list().map((folder) => [folder.id, lineOf(folder)]));
    for (const [id, line] of now) if (last.get(id) !== line) err(line);
    last = now;
  };
  const onQueued = (folder: WatchedFolderView, rows: unknown[]) =>
    err(words('watch.queued', { files: count(rows.length, 'files'), path: printable(folder.path) }));
  core.watched.on('changed', onChanged);
  core.watched.on('queued', onQueued);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  core.watched.off('changed', onChanged);
  core.watched.off('queued', onQueued);
  err(words('watch.stopping'));
  return EXIT.ok;
}
