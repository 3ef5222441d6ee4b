/**
 * What the desktop shell does in the background, decided without Electron so it is tested under
 * Node: the tray's menu and tooltip, whether closing the window keeps the app running, what
 * quitting with work waiting asks, and which notifications the change stream calls for. The
 * Electron shell (main/electron/) only draws these.
 */
import type { TFunction } from 'i18next';
import type { StateCounts } from '../../protocol/states';
import { isWaiting, waitingCount } from '../../protocol/states';
import type { CertificationRow, QueueChanges } from '../../protocol/views';
import { sayWith } from '../../protocol/locales';

export type ShellText = TFunction<'shell'>;
export type TrayAction = 'open' | 'sync-now' | 'pause' | 'resume' | 'quit';

export interface TrayModel {
  tooltip: string;
  /** Beside the icon in the macOS menu bar: the count waiting, or nothing. */
  title: string;
  items: { action: TrayAction; label: string; enabled: boolean }[];
}

/** How the watched folders are doing, for the tray: how many are watched, how many are not. */
export interface WatchingSummary {
  folders: number;
  notWatching: number;
}

export function trayModel(
  counts: StateCounts,
  paused: boolean,
  t: ShellText,
  watching: WatchingSummary = { folders: 0, notWatching: 0 },
): TrayModel {
  const waiting = waitingCount(counts);
  const tooltip = paused
    ? t('tray.tooltipPaused')
    : waiting
      ? t('tray.tooltipWaiting', { count: waiting })
      : t('tray.tooltipIdle');
  // A folder not being watched is said in the tooltip and first in the menu: never silent.
  const folderItems: TrayModel['items'] = watching.notWatching
    ? [{ action: 'open', label: t('tray.notWatching', { count: watching.notWatching }), enabled: true }]
    : watching.folders
      ? [{ action: 'open', label: t('tray.watching', { count: watching.folders }), enabled: false }]
      : [];
  return {
    tooltip: watching.notWatching
      ? `${tooltip} — ${t('tray.notWatching', { count: watching.notWatching })}`
      : tooltip,
    title: waiting ? String(waiting) : '',
    items: [
      ...folderItems,
      { action: 'open', label: t('tray.open'), enabled: true },
      { action: 'sync-now', label: t('tray.syncNow'), enabled: !paused && waiting > 0 },
      paused
        ? { action: 'resume', label: t('tray.resume'), enabled: true }
        : { action: 'pause', label: t('tray.pause'), enabled: true },
      { action: 'quit', label: t('tray.quit'), enabled: true },
    ],
  };
}

/** The window's title: the count waiting, so it shows in the taskbar too. */
export function windowTitle(counts: StateCounts, t: ShellText): string {
  const waiting = waitingCount(counts);
  return waiting ? t('title.waiting', { count: waiting }) : 'Evidence Desk';
}

/** Closing the window while anything waits hides it to the tray, so sending goes on. */
export const closeKeepsRunning = (counts: StateCounts): boolean => waitingCount(counts) > 0;

export interface QuitQuestion {
  message: string;
  detail: string;
  buttons: [quitAnyway: string, keepRunning: string];
  /** Keep running is the safe answer: Enter and Escape both choose it. */
  defaultId: 1;
  cancelId: 1;
}

/** Quitting with work waiting says how much and asks; with nothing waiting, quits at once (null). */
export function quitQuestion(counts: StateCounts, t: ShellText): QuitQuestion | null {
  const waiting = waitingCount(counts);
  if (waiting === 0) return null;
  return {
    message: t('quit.question', { count: waiting }),
    detail: t('quit.detail'),
    buttons: [t('quit.quitAnyway'), t('quit.keepRunning')],
    defaultId: 1,
    cancelId: 1,
  };
}

export interface Notice {
  title: string;
  body: string;
}

// Anchored rows arrive over seconds; one notification once the queue has been quiet this long.
export const ANCHORED_QUIET_MS = 1500;
const SAID_REMEMBERED = 10_000;

/**
 * Notifications from the change stream, window open or not: each failure for good at once (with
 * its reason), and anchorings gathered into one notice once nothing waits any more.
 */
export class NotificationPlanner {
  /** Anchored since the last notice, once each: a row changes again after anchoring (its verification, its time). */
  private readonly anchoredSinceQuiet = new Set<number>();
  /** Already said, so a later change to the same row is not said again; sent again, it is forgotten. */
  private readonly said = new Set<number>();
  private quietTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly t: () => ShellText,
    private readonly rowsOf: (ids: number[]) => CertificationRow[],
    private readonly show: (notice: Notice) => void,
  ) {}

  onChanges(changes: QueueChanges): void {
    const t = this.t();
    for (const change of changes.changed) if (isWaiting(change.state)) this.said.delete(change.id);
    const fresh = changes.changed.filter((change) => !this.said.has(change.id));
    const failed = fresh.filter((change) => change.state === 'failed').map((change) => change.id);
    this.remember(failed);
    for (const row of this.rowsOf(failed))
      this.show({
        title: t('notify.failedTitle'),
        body: t('notify.failedBody', {
          name: row.fileName,
          reason: row.errorMessage ? sayWith(t)(row.errorMessage) : t('notify.failedNoReason'),
        }),
      });
    for (const change of fresh) if (change.state === 'anchored') this.anchoredSinceQuiet.add(change.id);
    clearTimeout(this.quietTimer);
    if (waitingCount(changes.counts) === 0 && this.anchoredSinceQuiet.size > 0)
      this.quietTimer = setTimeout(() => {
        const count = this.anchoredSinceQuiet.size;
        this.remember([...this.anchoredSinceQuiet]);
        this.anchoredSinceQuiet.clear();
        this.show({ title: this.t()('notify.anchoredTitle'), body: this.t()('notify.anchored', { count }) });
      }, ANCHORED_QUIET_MS);
  }

  dispose(): void {
    clearTimeout(this.quietTimer);
  }

  private remember(ids: number[]): void {
    for (const id of ids) this.said.add(id);
    // The most recent are enough: later changes to a row come within minutes of its anchoring.
    for (const id of this.said) {
      if (this.said.size <= SAID_REMEMBERED) break;
      this.said.delete(id);
    }
  }
}
