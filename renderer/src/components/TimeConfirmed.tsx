import { useTranslation } from 'react-i18next';
import type { CertificationRow } from '../../../protocol/views';
import { When, useSay } from '../i18n';

/** Independent time (RFC 3161): who confirmed it and when, or why not yet, in words. */
export function TimeConfirmed({ row }: { row: CertificationRow }) {
  const { t } = useTranslation();
  const say = useSay();
  if (row.timestampState === 'confirmed' && row.timeConfirmedAt !== null)
    return (
      <>
        <When ms={row.timeConfirmedAt} />{' '}
        {t('details.timeConfirmedBy', { authority: row.timeConfirmedBy ?? '' })}
        {/* What checking this time later needs, when it is not kept yet (or shows the authority revoked). */}
        {row.timestampProblem && <span className="time-standing">{say(row.timestampProblem)}</span>}
      </>
    );
  if (row.timestampState === 'waiting')
    return (
      <>
        {row.timestampProblem
          ? t('details.timeNotYet', { reason: say(row.timestampProblem) })
          : t('details.timeAsked')}
      </>
    );
  return <>{t('details.noTimestamp')}</>;
}
