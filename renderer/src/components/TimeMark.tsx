import { useTranslation } from 'react-i18next';
import type { RowView } from '../../../protocol/views';
import { useSay } from '../i18n';

/**
 * A row's independent time (RFC 3161) in the list: a word or two beside its state, the whole
 * sentence on hover and for screen readers (confirmed by whom, or why not yet).
 */
export function TimeMark({ row }: { row: RowView }) {
  const { t } = useTranslation();
  const say = useSay();
  // Said once the service has the certification; before, and after a failure, the state says enough.
  if (row.state !== 'pending' && row.state !== 'anchored') return null;
  const mark =
    row.timestampState === 'confirmed'
      ? {
          tone: 'confirmed',
          word: t('list.time.confirmed'),
          full: [
            t('list.time.confirmedBy', { authority: row.timeConfirmedBy ?? '' }),
            row.timestampProblem && say(row.timestampProblem),
          ]
            .filter(Boolean)
            .join(' '),
        }
      : row.timestampState === 'waiting'
        ? {
            tone: 'waiting',
            word: t('list.time.waiting'),
            full: row.timestampProblem
              ? t('details.timeNotYet', { reason: say(row.timestampProblem) })
              : t('details.timeAsked'),
          }
        : { tone: 'none', word: t('list.time.notAsked'), full: t('details.noTimestamp') };
  return (
    <span className={`time-mark time-${mark.tone}`} title={mark.full}>
      {mark.word}
      <span className="visually-hidden">: {mark.full}</span>
    </span>
  );
}
