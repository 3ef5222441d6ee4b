import { EventEmitter } from 'node:events';
import { readFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { basename, isAbsolute, resolve } from 'node:path';
import { said } from '../../protocol/said';
import type { CertificationRow, WatchedFolderChoices, WatchedFolderView } from '../../protocol/views';
import { batchMetadataSchema } from '../../protocol/certification-request';
import type { Identity } from '../config/identity';
import { DeskError } from '../errors';
import type { HashPool } from '../hashing/hash-pool';
import type { Logger } from '../logging/logger';
import type { WatchedFolderStore } from '../store';
import type { FolderWatcher, ReadyFile } from './folder-watcher';
import type { WatchTiming } from './watch-timing';
import type { SubscribeToChanges } from './change-events';
import { DEFAULT_WATCH_TIMING } from './watch-timing';
import type { Mount } from './network-drive';
import { isOnNetworkShare, mountsFromMountCommand, mountsFromProcMounts } from './network-drive';

export interface WatchedFoldersDeps {
  store: WatchedFolderStore;
  pool: HashPool;
  log: Logger;
  activeProfileId(): string;
  identity(): Identity;
  /** New rows were queued: send them, and gather them under a timestamp. */
  onQueued(rows: CertificationRow[]): void;
  timing?: Partial<WatchTiming>;
  /** The system's change events; @parcel/watcher's unless given. */
  subscribe?: SubscribeToChanges;
}

export interface WatchedFoldersEvents {
  /** The folders, their choices or how they are doing changed. */
  changed: [];
  /** Certifications were queued from a watched folder. */
  queued: [folder: WatchedFolderView, rows: CertificationRow[]];
  /** Files of a folder held still and were hashed and recorded: how many, and how many were new (queued). */
  examined: [folder: WatchedFolderView, files: number, queued: number];
}

/**
 * The watched folders of the active profile: their choices (kept in the queue's database, so the
 * app and the command line share them) and, while `start`ed, a watcher per folder that is not
 * paused. The list is read again on every health tick, so a folder added, paused or removed from
 * the command line is taken up by the running app.
 */
export class WatchedFolders extends EventEmitter<WatchedFoldersEvents> {
  private readonly watchers = new Map<number, FolderWatcher>();
  private readonly timing: WatchTiming;
  private healthTimer: NodeJS.Timeout | undefined;
  private running = false;
  private mounts: { at: number; list: Mount[] } | null = null;

  constructor(private readonly deps: WatchedFoldersDeps) {
    super();
    this.timing = { ...DEFAULT_WATCH_TIMING, ...deps.timing };
  }

  list(): WatchedFolderView[] {
    return this.deps.store.list(this.deps.activeProfileId());
  }

  /** Adds a folder to watch; refused in words when it is not a folder, or watched already. */
  add(choices: WatchedFolderChoices): WatchedFolderView {
    const path = resolve(choices.path);
    const checked = this.checked({ ...choices, path });
    let info;
    try {
      info = statSync(path);
    } catch {
      throw new DeskError('invalid_input', said('watch.folderMissing', { path }));
    }
    if (!info.isDirectory()) throw new DeskError('invalid_input', said('watch.notAFolder', { path }));
    const id = this.deps.store.add(this.deps.activeProfileId(), checked, 'evidence-desk');
    if (id === null) throw new DeskError('invalid_input', said('watch.alreadyWatched', { path }));
    this.changed();
    return this.deps.store.get(id) as WatchedFolderView;
  }

  update(id: number, choices: Omit<WatchedFolderChoices, 'path'>): WatchedFolderView {
    const folder = this.find(id);
    this.deps.store.update(id, this.checked({ ...choices, path: folder.path }));
    this.changed();
    return this.find(id);
  }

  remove(id: number): void {
    this.find(id);
    this.deps.store.remove(id);
    this.changed();
  }

  setPaused(id: number, paused: boolean): WatchedFolderView {
    this.find(id);
    this.deps.store.setPaused(id, paused);
    this.changed();
    return this.find(id);
  }

  /** A folder by its id or its path (as given on the command line). */
  find(idOrPath: number | string): WatchedFolderView {
    const folders = this.list();
    const folder =
      typeof idOrPath === 'number' || /^\d+$/.test(idOrPath)
        ? folders.find((candidate) => candidate.id === Number(idOrPath))
        : folders.find((candidate) => candidate.path === resolve(idOrPath));
    if (!folder) throw new DeskError('not_found', said('watch.noSuchFolder', { folder: String(idOrPath) }));
    return folder;
  }

  /** Watches every folder that is not paused, until `stop`. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.reconcile();
    this.healthTimer = setInterval(() => void this.reconcile(), this.timing.healthMs);
  }

  /** Stops watching; what was waiting is found again by the next start's catch-up. */
  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.healthTimer);
    const watchers = [...this.watchers.values()];
    this.watchers.clear();
    await Promise.all(watchers.map((watcher) => watcher.stop()));
  }

  /** Files seen changing and not yet certified, across the folders (for a clean stop, and tests). */
  get waiting(): number {
    return [...this.watchers.values()].reduce((sum, watcher) => sum + watcher.waiting, 0);
  }

  /** Starts and stops watchers to match the list, and checks on each folder. */
  private async reconcile(): Promise<void> {
    if (!this.running) return;
    // The watcher (and the native file-system watcher under it) loads only where watching runs.
    const { FolderWatcher } = await import('./folder-watcher');
    const folders = this.list();
    const wanted = new Map(folders.filter((folder) => !folder.paused).map((folder) => [folder.id, folder]));
    for (const [id, watcher] of this.watchers)
      if (!wanted.has(id)) {
        this.watchers.delete(id);
        await watcher.stop();
      }
    await Promise.all(
      [...wanted.values()].map(async (folder) => {
        const running = this.watchers.get(folder.id);
        if (running) {
          running.update(folder);
          return running.health();
        }
        const watcher = new FolderWatcher(folder, {
          store: this.deps.store,
          pool: this.deps.pool,
          log: this.deps.log,
          timing: this.timing,
          polled: (candidate) => this.polled(candidate),
          arrive: (arrivedIn, files) => this.arrive(arrivedIn, files),
          onStatus: () => this.changed(),
          subscribe: this.deps.subscribe,
        });
        this.watchers.set(folder.id, watcher);
        return watcher.start();
      }),
    );
  }

  /** Hashed files from a folder: recorded, and certified when their content is new here. */
  private arrive(folder: WatchedFolderView, files: ReadyFile[]): void {
    if (!this.running) return;
    const identity = this.deps.identity();
    const batchId = Date.now();
    const rows = this.deps.store.recordArrivals(
      folder.id,
      files.map((file) => ({
        path: file.path,
        look: file.look,
        item: {
          profileId: this.deps.activeProfileId(),
          filePath: file.absolute,
          fileName: basename(file.absolute),
          fileSize: file.look.size,
          assetHash: file.hash,
          assetType: folder.assetType,
          sourceSystem: folder.sourceSystem,
          eventType: folder.eventType,
          certifiedBy: identity.user,
          certifiedOn: identity.computer,
          certifierName: identity.name ?? null,
          certifierFirm: identity.firm ?? null,
          matter: folder.matter,
          batchId,
        },
      })),
    );
    this.deps.log.log('info', 'watch.arrived', {
      folder: folder.id,
      files: files.length,
      queued: rows.length,
    });
    if (rows.length) {
      this.deps.onQueued(rows);
      this.emit('queued', folder, rows);
    }
    this.emit('examined', folder, files.length, rows.length);
  }

  private polled(folder: WatchedFolderView): boolean {
    if (folder.method !== 'auto') return folder.method === 'poll';
    return isOnNetworkShare(folder.path, process.platform, this.currentMounts());
  }

  /** The system's mounts, read at most once a minute (they change when a share is connected). */
  private currentMounts(): Mount[] {
    if (this.mounts && Date.now() - this.mounts.at < 60_000) return this.mounts.list;
    let list: Mount[] = [];
    try {
      if (process.platform === 'linux')
        list = mountsFromProcMounts(readFileSync('/proc/self/mounts', 'utf8'));
      else if (process.platform === 'darwin')
        list = mountsFromMountCommand(execFileSync('/sbin/mount', { encoding: 'utf8', timeout: 5_000 }));
    } catch (error) {
      this.deps.log.log('warn', 'watch.mounts_unreadable', { error: (error as Error).message });
    }
    this.mounts = { at: Date.now(), list };
    return list;
  }

  /** The choices as the store keeps them: the batch's fields by the certify form's rules. */
  private checked(choices: WatchedFolderChoices): WatchedFolderChoices {
    if (!isAbsolute(choices.path))
      throw new DeskError('invalid_input', said('watch.notAFolder', { path: choices.path }));
    const batch = batchMetadataSchema.safeParse({
      event_type: choices.eventType,
      asset_type: choices.assetType,
      source_system: 'evidence-desk',
      matter: choices.matter ?? undefined,
    });
    if (!batch.success)
      throw new DeskError(
        'invalid_input',
        said('watch.badChoice', { detail: batch.error.issues.map((issue) => issue.message).join('; ') }),
      );
    const whole = (value: number, least: number) => Number.isInteger(value) && value >= least;
    if (!whole(choices.pollSeconds, 5) || !whole(choices.settleMs, 100))
      throw new DeskError('invalid_input', said('watch.badTiming'));
    return {
      ...choices,
      matter: batch.data.matter ?? null,
      eventType: batch.data.event_type,
      assetType: batch.data.asset_type,
      include: choices.include?.trim() || null,
    };
  }

  private changed(): void {
    this.emit('changed');
  }
}
