import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RecordsStatus } from '../../../protocol/views';
import { findDocumentsToRenew } from '../calls/watched';
import { useStatus } from '../hooks/useStatus';
import { useSay } from '../i18n';
import { keys } from '../store';

/**
 * Evidence records (RFC 4998) renew themselves in the background. A quiet line says when they were
 * last renewed (or until when they hold); a banner says what needs someone: records past their end,
 * a renewal the authority has not answered, or no authority to ask.
 */
export function RecordsLine() {
  const { t } = useTranslation();
  const records = useStatus().data?.records;
  // Records past their end, a renewal delayed, or documents not found are the banner's to say:
  // "renews them before then" or "nothing to do" would no longer be true.
  if (
    !records ||
    records.all.records === 0 ||
    records.holdsUntil === null ||
    records.expired.records > 0 ||
    records.waiting?.problem ||
    records.notFound
  )
    return null;
  const count = records.all.documents;
  return (
    <p className="records-line" data-testid="records-line">
      {records.lastRenewal
        ? t('records.renewed', {
            count,
            at: records.lastRenewal.at,
            authority: records.lastRenewal.authority,
            next: records.nextDueAt,
          })
        : t('records.notRenewedYet', { count, until: records.holdsUntil })}
    </p>
  );
}

export function RecordsBanner({ onOpenSettings }: { onOpenSettings(): void }) {
  const { t } = useTranslation();
  const say = useSay();
  const records = useStatus().data?.records;
  if (!records) return null;
  const until = records.holdsUntil;
  if (records.expired.documents > 0)
    return (
      <div className="banner banner-key" role="alert" data-testid="records-banner">
        <span>{t('records.expired', { count: records.expired.documents })}</span>
        <button type="button" onClick={onOpenSettings}>
          {t('records.openSettings')}
        </button>
      </div>
    );
  if (records.noAuthority.documents > 0)
    return (
      <div className="banner banner-offline" role="status" data-testid="records-banner">
        <span>{t('records.noAuthority', { count: records.noAuthority.documents, until })}</span>
        <button type="button" onClick={onOpenSettings}>
          {t('records.openSettings')}
        </button>
      </div>
    );
  if (records.waiting?.problem)
    return (
      <div className="banner banner-offline" role="status" data-testid="records-banner">
        <span>
          {t('records.waiting', {
            count: records.waiting.documents,
            why: say(records.waiting.problem),
            until,
          })}
        </span>
        <button type="button" onClick={onOpenSettings}>
          {t('records.openSettings')}
        </button>
      </div>
    );
  if (records.notFound) return <NotFoundBanner notFound={records.notFound} />;
  return null;
}

/**
 * Records to renew to SHA-512 whose documents were not found: which, by matter, and a way to show
 * Evidence Desk the folder they are in now (a folder dialog; the rest of the records are renewed).
 */
function NotFoundBanner({ notFound }: { notFound: NonNullable<RecordsStatus['notFound']> }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [looking, setLooking] = useState(false);
  const look = async () => {
    setLooking(true);
    try {
      await findDocumentsToRenew();
    } finally {
      setLooking(false);
      await queryClient.invalidateQueries({ queryKey: keys.status });
    }
  };
  return (
    <div className="banner banner-offline" role="status" data-testid="records-banner">
      <span>
        {t('records.notFound', { count: notFound.documents })}
        {notFound.matters.map(({ matter, names, more }) => {
          const listed = more
            ? t('records.andMore', { names: names.join(', '), count: more })
            : names.join(', ');
          return (
            <span className="records-missing" key={matter ?? ''}>
              {matter === null
                ? t('records.notFoundNoMatter', { names: listed })
                : t('records.notFoundMatter', { matter, names: listed })}
            </span>
          );
        })}
      </span>
      <button type="button" onClick={() => void look()} disabled={looking}>
        {t('records.lookInFolder')}
      </button>
    </div>
  );
}
