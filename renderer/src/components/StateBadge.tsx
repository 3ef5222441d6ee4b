import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { unknownServiceWord } from '../../../protocol/service-states';
import type { RowView } from '../../../protocol/views';
import { useSay } from '../i18n';

/** The state of one certification in words a non-technical person reads at a glance. */
export function describeState(row: RowView, offline: boolean, t: TFunction): { label: string; tone: string } {
  switch (row.state) {
    case 'queued':
      return { label: t(offline ? 'state.waitingOffline' : 'state.waiting'), tone: 'waiting' };
    case 'submitting':
      return { label: t('state.sending'), tone: 'waiting' };
    case 'pending': {
      const unknown = unknownServiceWord(row.serviceState);
      const label = unknown ? t('state.pendingService', { state: unknown }) : t('state.pending');
      return {
        label: row.errorMessage ? t('state.lastCheckFailed', { state: label }) : label,
        tone: 'pending',
      };
    }
    case 'anchored':
      if (row.verification === 'verified') return { label: t('state.verified'), tone: 'ok' };
      if (row.verification === 'invalid') return { label: t('state.invalid'), tone: 'bad' };
      return { label: t('state.unverifiable'), tone: 'pending' };
    case 'failed':
      return { label: t('state.failed'), tone: 'bad' };
  }
}

/** The badge, and for a failure its reason beside it in full: a reason squeezed into a badge is unreadable. */
export function StateBadge({
  row,
  offline,
  withReason = false,
}: {
  row: RowView;
  offline: boolean;
  withReason?: boolean;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const { label, tone } = describeState(row, offline, t);
  const reason =
    row.state === 'failed' ? (row.errorMessage ? say(row.errorMessage) : t('state.unknownReason')) : null;
  return (
    <>
      <span className={`badge badge-${tone}`} data-state={row.state} title={reason ?? label}>
        {label}
      </span>
      {withReason && reason && <span className="reason">{reason}</span>}
    </>
  );
}
