import { useTranslation } from 'react-i18next';
import type { NoticeContent } from '../store';
import { useFormat } from '../i18n';
import { showSaved } from '../actions';
import { useSay } from '../i18n';

const nameOf = (path: string) => path.split(/[\\/]/).at(-1) ?? path;

/** What just happened to a batch or a verification, with every file that could not be taken and why. */
export function Notice({ notice, onDismiss }: { notice: NoticeContent; onDismiss(): void }) {
  const { t } = useTranslation();
  const say = useSay();
  const format = useFormat();
  const already = notice.alreadyCertified ?? [];
  return (
    <div className="notice" role="status">
      {notice.text && <p>{notice.text}</p>}
      {notice.problems.length > 0 && (
        <ul>
          {notice.problems.map((problem) => (
            <li key={problem.path}>
              <strong>{nameOf(problem.path)}</strong>: {say(problem.said)}
            </li>
          ))}
        </ul>
      )}
      {already.length > 0 && (
        <>
          <p>{t('notice.alreadyCertified', { count: already.length })}</p>
          <ul data-testid="already-certified">
            {already.map(({ path, earlier }) => (
              <li key={path}>
                <strong>{nameOf(path)}</strong>:{' '}
                <span title={format.utcTitle(earlier.createdAt)}>
                  {t(
                    earlier.state === 'queued' || earlier.state === 'submitting'
                      ? 'notice.alreadyQueuedAs'
                      : 'notice.alreadyCertifiedAs',
                    { when: format.long(earlier.createdAt), name: earlier.fileName },
                  )}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="actions-inline">
        {already.length > 0 && notice.certifyAgain && (
          <button type="button" onClick={notice.certifyAgain}>
            {t('notice.certifyAgain', { count: already.length })}
          </button>
        )}
        {notice.saveUnsealed && (
          <button type="button" onClick={notice.saveUnsealed}>
            {t('notice.saveUnsealed')}
          </button>
        )}
        {notice.openFolder && (
          <button type="button" onClick={() => showSaved(notice.openFolder as string)}>
            {t('notice.openFolder')}
          </button>
        )}
        <button type="button" onClick={onDismiss}>
          {t('notice.dismiss')}
        </button>
      </div>
    </div>
  );
}
