import { useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { waitingCount } from '../../../protocol/states';
import type { ConnectivityStatus, KitProgress } from '../../../protocol/views';
import { isSendingBlocked } from '../../../protocol/views';
import { messageOf } from '../bridge';
import { acceptLogKey } from '../calls/settings';
import { useStatus } from '../hooks/useStatus';
import { useDesk } from '../store';
import { useFormat, useSay } from '../i18n';
import { fingerprintInGroups } from '../../../protocol/fingerprint-groups';
import { leftAtPace, timeLeftWords } from '../time-left';
import { cancelKit, resumeSending, tryNow } from '../actions';

export function DemoBanner() {
  const { data } = useStatus();
  if (!data?.profile.demo) return null;
  return (
    <div className="banner banner-demo" role="note">
      <span>
        <Trans i18nKey="banner.demo" components={{ strong: <strong /> }} />
      </span>
    </div>
  );
}

/**
 * The service's log key changed: nothing is checked with the new key until it is trusted. What is
 * at stake is said in plain words, the fingerprint in groups to compare, and trusting it takes a
 * second, deliberate step; where IT decides (policy LockLogKeys), the banner only says so.
 */
export function LogKeyChangeBanner() {
  const { t } = useTranslation();
  const change = useStatus().data?.logKeyChange;
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  if (!change) return null;
  const accept = async () => {
    try {
      await acceptLogKey();
    } catch (error) {
      setProblem(messageOf(error));
    }
  };
  return (
    <div className="banner banner-key" role="alert">
      <div>
        <p>
          <Trans
            i18nKey={change.lockedByPolicy ? 'banner.keyChangedLocked' : 'banner.keyChanged'}
            components={{ strong: <strong /> }}
          />
        </p>
        <p>
          {t('banner.newFingerprint')}{' '}
          <code className="fingerprint">{fingerprintInGroups(change.fingerprint)}</code>
        </p>
        {confirming && <p>{t('banner.trustKeyConfirm')}</p>}
        {problem && <p>{problem}</p>}
      </div>
      {!change.lockedByPolicy &&
        (confirming ? (
          <span className="banner-actions">
            <button type="button" onClick={() => void accept()}>
              {t('banner.trustKeyConfirmed')}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('banner.cancel')}
            </button>
          </span>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            {t('banner.trustKey')}
          </button>
        ))}
    </div>
  );
}

type CutOff = 'offline' | 'standbyApp' | 'standbyCommandLine' | 'paused';

/** Why nothing is being sent, when that is worth a banner: offline, another sender, or paused. */
function cutOff(connectivity: ConnectivityStatus): CutOff | null {
  if (connectivity.state === 'offline') return 'offline';
  if (connectivity.state === 'paused') return 'paused';
  if (connectivity.state === 'standby')
    return connectivity.sentBy === 'command-line' ? 'standbyCommandLine' : 'standbyApp';
  return null;
}

/** When nothing is being sent: why, how much waits, and the one thing to do about it. */
export function ConnectionBanner({ onOpenSettings }: { onOpenSettings(): void }) {
  const { t } = useTranslation();
  const say = useSay();
  const { data, connectivity } = useStatus();
  if (!connectivity || !data) return null;
  const blocked = isSendingBlocked(connectivity.state);
  const reason = cutOff(connectivity);
  // Refused credentials and a profile that needs setting up carry their own words: the service's, or what is missing.
  const what = blocked ? connectivity.message && say(connectivity.message) : reason && t(`banner.${reason}`);
  if (!what) return null;
  const waiting = waitingCount(data.counts);
  const then = blocked
    ? 'banner.willSendWhenFixed'
    : reason === 'paused'
      ? 'banner.willSendWhenResumed'
      : 'banner.willSendAutomatically';
  return (
    <div className="banner banner-offline" role="status" data-testid="offline-banner">
      <span>
        {what} {t('banner.waiting', { count: waiting })} {t(then)}
      </span>
      {blocked ? (
        <button type="button" onClick={onOpenSettings}>
          {t('banner.openSettings')}
        </button>
      ) : reason === 'offline' ? (
        <button type="button" onClick={tryNow}>
          {t('banner.tryNow')}
        </button>
      ) : reason === 'paused' ? (
        <button type="button" onClick={resumeSending}>
          {t('banner.resume')}
        </button>
      ) : null}
    </div>
  );
}

/** The connection, in one word or two; before the first contact, "Ready" while nothing waits to be sent. */
export function ConnectionIndicator() {
  const { t } = useTranslation();
  const { data, connectivity } = useStatus();
  const state = connectivity?.state ?? 'unknown';
  const idle = state === 'unknown' && data !== undefined && waitingCount(data.counts) === 0;
  const word = idle
    ? t('connection.ready')
    : state === 'standby' && connectivity?.sentBy === 'command-line'
      ? t('connection.standbyForCommandLine')
      : t(`connection.${state}`);
  return (
    <span className={`indicator indicator-${idle ? 'idle' : state}`} role="status" aria-live="polite">
      <span aria-hidden="true">●</span> {word}
    </span>
  );
}

/** Which service certifications go to, always in view: "Demo sandbox", "Production: acme". */
export function EnvironmentName() {
  const { t } = useTranslation();
  const profile = useStatus().data?.profile;
  if (!profile) return null;
  const name = t(`environment.${profile.kind}`);
  return (
    <span className={`environment environment-${profile.kind}`} data-testid="environment">
      {profile.kind === 'embedded' ? name : t('environment.named', { environment: name, name: profile.id })}
      {/* In a short window the demo banner gives way: its point stays here, always in view. */}
      {profile.demo && <span className="short-window-only">{t('environment.noLegalWeight')}</span>}
    </span>
  );
}

/**
 * How long the kit still takes, from its pace so far: nothing until a few seconds and certificates
 * have passed (an early guess misleads), then as a person says it.
 */
function useTimeLeft(kit: KitProgress | null): string | null {
  const { t } = useTranslation();
  // The pace is measured from the first progress this window saw, in certificates per millisecond.
  const first = useRef<{ at: number; done: number } | null>(null);
  if (!kit) first.current = null;
  else first.current ??= { at: Date.now(), done: kit.done };
  if (!kit || !first.current || kit.done >= kit.total) return null;
  const leftMs = leftAtPace(
    Date.now() - first.current.at,
    kit.done - first.current.done,
    kit.total - kit.done,
  );
  return leftMs === null ? null : timeLeftWords(leftMs, t);
}

export function ProgressBars() {
  const { t } = useTranslation();
  const format = useFormat();
  const progress = useDesk((s) => s.progress);
  const file = useDesk((s) => s.fileProgress);
  const kit = useDesk((s) => s.kitProgress);
  const left = useTimeLeft(kit);
  const fingerprinting = progress && progress.filesDone < progress.filesTotal;
  if (!fingerprinting && !kit) return null;
  return (
    <div className="progress" aria-live="polite">
      {kit && (
        <div className="kit-progress">
          <label>
            {kit.sealingUntil !== undefined
              ? kit.sealingUntil === null
                ? t('progress.sealingKit')
                : t('progress.sealingKitWaiting', { time: format.short(kit.sealingUntil) })
              : kit.done < kit.total
                ? t('progress.savingKit', { done: kit.done, count: kit.total })
                : t('progress.savingKitPapers', { count: kit.total })}
            {left && ` · ${left}`}
            <progress max={Math.max(1, kit.total)} value={kit.done} />
          </label>
          <button type="button" onClick={cancelKit}>
            {t('progress.cancelKit')}
          </button>
        </div>
      )}
      {fingerprinting && (
        <label>
          {t('progress.fingerprinting', { done: progress.filesDone, count: progress.filesTotal })}
          <progress max={Math.max(1, progress.bytesTotal)} value={progress.bytesDone} />
        </label>
      )}
      {file && file.bytesDone < file.bytesTotal && (
        <label>
          {file.path.split(/[\\/]/).at(-1)}
          <progress max={file.bytesTotal} value={file.bytesDone} />
        </label>
      )}
    </div>
  );
}

/** A watched folder that is not being watched (gone, no permission, a share not connected): never silent. */
export function WatchedFolderBanner({ onOpenSettings }: { onOpenSettings(): void }) {
  const { t } = useTranslation();
  const say = useSay();
  const broken = (useDesk((state) => state.folders) ?? []).filter(
    (folder) => folder.status === 'unavailable',
  );
  const [first] = broken;
  if (!first) return null;
  return (
    <div className="banner banner-key" role="alert" data-testid="watch-banner">
      <span>
        {broken.length === 1
          ? t('watch.bannerOne', { path: first.path, why: first.problem ? say(first.problem) : '' })
          : t('watch.bannerMany', { count: broken.length })}
      </span>
      <button type="button" onClick={onOpenSettings}>
        {t('watch.openSettings')}
      </button>
    </div>
  );
}

/** In the header: how many folders are watched, when any are. */
export function WatchingCount() {
  const { t } = useTranslation();
  const watching = (useDesk((state) => state.folders) ?? []).filter((folder) => !folder.paused).length;
  if (watching === 0) return null;
  return (
    <span className="watching" data-testid="watching-count">
      {t('watch.header', { count: watching })}
    </span>
  );
}
