import { waitingCount } from '../../../protocol/states';
import type { ProfileKind } from '../../../protocol/profiles';
import type { Connectivity } from '../../../protocol/views';
import { isSendingBlocked } from '../../../protocol/views';
import { useState } from 'react';
import { ask, bridge, messageOf } from '../bridge';
import { useStatus } from '../hooks/useStatus';
import { useLive } from '../store';

export function DemoBanner() {
  const { data } = useStatus();
  if (!data?.profile.demo) return null;
  return (
    <div className="banner banner-demo" role="note">
      <span>
        Demo environment: certifications made here are real cryptographic evidence but carry{' '}
        <strong>no legal weight</strong>. Choose a service in Settings for production use.
      </span>
    </div>
  );
}

/**
 * The service's log key changed: nothing is checked with the new key until the person has compared
 * its fingerprint with the one the service publishes, and says so.
 */
export function LogKeyChangeBanner() {
  const change = useStatus().data?.logKeyChange;
  const [problem, setProblem] = useState<string | null>(null);
  if (!change) return null;
  const accept = async () => {
    try {
      await ask(bridge().acceptLogKey({}));
    } catch (error) {
      setProblem(messageOf(error));
    }
  };
  return (
    <div className="banner banner-key" role="alert">
      <span>
        <strong>The service’s log key changed.</strong> New certifications are not checked until you trust the
        new key. Compare its fingerprint <code>{change.fingerprint}</code> with the one the service publishes;
        trust it only if they match.{problem ? ` ${problem}` : ''}
      </span>
      <button type="button" onClick={() => void accept()}>
        They match: trust the new key
      </button>
    </div>
  );
}

const CUT_OFF: Partial<Record<Connectivity, string>> = {
  offline: 'The certification service cannot be reached.',
  standby: 'Another Evidence Desk on this computer is sending this queue.',
};

/** When nothing is being sent: why, how much waits, and the one thing to do about it. */
export function ConnectionBanner({ onOpenSettings }: { onOpenSettings(): void }) {
  const { data, connectivity } = useStatus();
  if (!connectivity || !data) return null;
  const blocked = isSendingBlocked(connectivity.state);
  // Refused credentials and a profile that needs setting up carry their own words: the service's, or what is missing.
  const what = blocked ? connectivity.message : CUT_OFF[connectivity.state];
  if (!what) return null;
  const waiting = waitingCount(data.counts);
  return (
    <div className="banner banner-offline" role="status" data-testid="offline-banner">
      <span>
        {what} {waiting} certification{waiting === 1 ? ' is' : 's are'} waiting
        {blocked ? ' and will be sent once this is fixed.' : ' and will be sent automatically.'} Nothing is
        lost.
      </span>
      {blocked ? (
        <button type="button" onClick={onOpenSettings}>
          Open Settings
        </button>
      ) : (
        <button type="button" onClick={() => void bridge().tryNow({})}>
          Try now
        </button>
      )}
    </div>
  );
}

const INDICATOR: Record<Connectivity, string> = {
  online: 'Connected',
  offline: 'Offline',
  auth_failed: 'Credentials refused',
  needs_setup: 'Needs setup',
  standby: 'Standing by',
  unknown: 'Connecting…',
};

/** The connection, in one word or two; before the first contact, "Ready" while nothing waits to be sent. */
export function ConnectionIndicator() {
  const { data, connectivity } = useStatus();
  const state = connectivity?.state ?? 'unknown';
  const idle = state === 'unknown' && data !== undefined && waitingCount(data.counts) === 0;
  return (
    <span className={`indicator indicator-${idle ? 'idle' : state}`} role="status" aria-live="polite">
      <span aria-hidden="true">●</span> {idle ? 'Ready' : INDICATOR[state]}
    </span>
  );
}

const HEADER_ENVIRONMENT: Record<ProfileKind, string> = {
  embedded: 'Demo sandbox',
  'service-sandbox': 'Service sandbox',
  production: 'Production',
  custom: 'Custom service',
};

/** Which service certifications go to, always in view: "Demo sandbox", "Production: acme". */
export function EnvironmentName() {
  const profile = useStatus().data?.profile;
  if (!profile) return null;
  const name = HEADER_ENVIRONMENT[profile.kind];
  return (
    <span className={`environment environment-${profile.kind}`} data-testid="environment">
      {profile.kind === 'embedded' ? name : `${name}: ${profile.id}`}
    </span>
  );
}

export function ProgressBars() {
  const progress = useLive((s) => s.progress);
  const file = useLive((s) => s.fileProgress);
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
