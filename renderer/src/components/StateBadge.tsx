import { serviceStateLabel } from '../../../protocol/service-states';
import type { RowView } from '../../../protocol/views';

/** The state of one certification in words a non-technical person reads at a glance. */
export function describeState(row: RowView, offline: boolean): { label: string; tone: string } {
  switch (row.state) {
    case 'queued':
      return { label: offline ? 'Waiting (offline)' : 'Waiting', tone: 'waiting' };
    case 'submitting':
      return { label: 'Sending', tone: 'waiting' };
    case 'pending': {
      const service = serviceStateLabel(row.serviceState);
      const said = service?.startsWith('unknown') ? ` · service: ${service}` : '';
      return { label: `Pending${said}${row.errorMessage ? ' · last check failed' : ''}`, tone: 'pending' };
    }
    case 'anchored':
      if (row.verification === 'verified') return { label: 'Anchored ✓ verified', tone: 'ok' };
      if (row.verification === 'invalid') return { label: 'Anchored — evidence did not verify', tone: 'bad' };
      return { label: 'Anchored — not checkable here', tone: 'pending' };
    case 'failed':
      return { label: `Failed: ${row.errorMessage ?? 'unknown reason'}`, tone: 'bad' };
  }
}

export function StateBadge({ row, offline }: { row: RowView; offline: boolean }) {
  const { label, tone } = describeState(row, offline);
  return (
    <span className={`badge badge-${tone}`} data-state={row.state} title={row.errorMessage ?? label}>
      {label}
    </span>
  );
}
