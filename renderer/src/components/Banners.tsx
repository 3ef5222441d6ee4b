import { bridge } from '../bridge';
import { useView } from '../store';

export function DemoBanner() {
  const demo = useView((s) => s.status?.profile.demo ?? false);
  if (!demo) return null;
  return (
    <div className="banner banner-demo" role="note">
      <span>
        Demo environment: certifications made here are real cryptographic evidence but carry{' '}
        <strong>no legal weight</strong>. Choose a service in Settings for production use.
      </span>
    </div>
  );
}

export function ConnectionBanner() {
  const connectivity = useView((s) => s.connectivity);
  const counts = useView((s) => s.status?.counts);
  if (!connectivity || !counts || !['offline', 'auth_failed', 'standby'].includes(connectivity.state))
    return null;
  const waiting = counts.queued + counts.submitting + counts.pending;
  const what =
    connectivity.state === 'offline'
      ? 'The certification service cannot be reached.'
      : connectivity.state === 'auth_failed'
        ? 'The service refused our credentials — check Settings.'
        : 'Another Evidence Desk on this computer is sending this queue.';
  return (
    <div className="banner banner-offline" role="status" data-testid="offline-banner">
      <span>
        {what} {waiting} certification{waiting === 1 ? ' is' : 's are'} waiting and will be sent
        automatically. Nothing is lost.
      </span>
      <button type="button" onClick={() => void bridge().tryNow({})}>
        Try now
      </button>
    </div>
  );
}

export function ConnectionIndicator() {
  const state = useView((s) => s.connectivity?.state ?? 'unknown');
  const label = {
    online: 'Connected',
    offline: 'Offline',
    auth_failed: 'Not signed in',
    standby: 'Standing by',
    unknown: 'Connecting…',
  }[state];
  return (
    <span className={`indicator indicator-${state}`} role="status" aria-live="polite">
      <span aria-hidden="true">●</span> {label}
    </span>
  );
}

export function ProgressBars() {
  const progress = useView((s) => s.progress);
  const file = useView((s) => s.fileProgress);
  if (!progress || progress.filesDone === progress.filesTotal) return null;
  return (
    <div className="progress" aria-live="polite">
      <label>
        Fingerprinting {progress.filesDone} of {progress.filesTotal} files
        <progress max={Math.max(1, progress.bytesTotal)} value={progress.bytesDone} />
      </label>
      {file && file.bytesDone < file.bytesTotal && (
        <label>
          {file.path.split(/[\\/]/).at(-1)}
          <progress max={file.bytesTotal} value={file.bytesDone} />
        </label>
      )}
    </div>
  );
}
