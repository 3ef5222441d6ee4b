import { eventSaid, kindSaid } from '../../../protocol/vocabulary';
import { personOf } from '../../../verifier/signed-facts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { serviceStateLabel } from '../../../protocol/service-states';
import { isRemovable } from '../../../protocol/states';
import type { CertificationRow } from '../../../protocol/views';
import { messageOf } from '../bridge';
import { readDetails } from '../calls/reads';
import { changeRow } from '../calls/rows';
import { When, useFormat } from '../i18n';
import { desk, keys, useDesk } from '../store';
import { CopyButton } from './CopyButton';
import { Dialog } from './Dialog';
import { Notice } from './Notice';
import { StateBadge } from './StateBadge';
import { DragOut } from './DragOut';
import { TimeConfirmed } from './TimeConfirmed';
import { useSay } from '../i18n';

/** The one plain sentence that says what the state means for the person relying on it. */
function meaningOf(row: CertificationRow) {
  if (row.state !== 'anchored') return `meaning.${row.state}` as const;
  return `meaning.${row.verification ?? 'unverifiable'}` as const;
}

/**
 * Everything about one certification, in the order a legal reader asks: what was certified, as
 * what, when, who and where, what its state means; then the technical part. Kept current by the
 * change stream.
 */
export function Details({
  id,
  onClose,
  onSaveEvidence,
  onSaveCertificate,
}: {
  id: number;
  onClose(): void;
  onSaveEvidence(ids: number[]): void;
  onSaveCertificate(row: CertificationRow): void;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const format = useFormat();
  const offline = useDesk((s) => s.connectivity?.state === 'offline');
  const folders = useDesk((s) => s.folders);
  // What a save started here did, said here: the window's own notice is behind this dialog.
  const notice = useDesk((s) => s.notice);
  const details = useQuery({ queryKey: keys.details(id), queryFn: () => readDetails(id) });
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);

  const act = (action: 'retry' | 'remove' | 'showInFolder') => async () => {
    try {
      await changeRow(action, id);
      if (action === 'remove') onClose();
    } catch (error) {
      setProblem(messageOf(error));
    }
  };

  const row = details.data?.row;
  const watchedFolder = folders?.find((folder) => folder.id === row?.watchedFolderId);
  const environment = details.data?.environment;
  const position = details.data?.logPosition;
  const history = details.data?.history ?? [];
  return (
    <Dialog title={row?.fileName ?? t('details.title')} onClose={onClose} wide>
      {details.isPending && <p className="hint">{t('details.loading')}</p>}
      {(problem ?? details.error) && (
        <p className="error" role="alert">
          {problem ?? messageOf(details.error)}
        </p>
      )}
      {row && environment && (
        <>
          <div className="state-line">
            <StateBadge row={row} offline={offline} withReason />
          </div>
          <p className="meaning">{t(meaningOf(row))}</p>
          {environment.demo && <p className="demo-mark">{t('details.demo')}</p>}

          <h3>{t('details.what')}</h3>
          <dl className="facts">
            <dt>{t('details.file')}</dt>
            <dd>{row.fileName}</dd>
            <dt>{t('details.size')}</dt>
            <dd>{format.size(row.fileSize)}</dd>
            <dt>{t('details.sha256')}</dt>
            <dd>
              <code className="hash">{row.assetHash}</code> <CopyButton text={row.assetHash} />
            </dd>
            <dt>{t('details.location')}</dt>
            <dd>
              <span className="path">{row.filePath}</span>{' '}
              <button type="button" className="copy" onClick={act('showInFolder')}>
                {t('details.showInFolder')}
              </button>
            </dd>
          </dl>

          <h3>{t('details.which')}</h3>
          <dl className="facts">
            <dt>{t('details.event')}</dt>
            <dd>{say(eventSaid(row.eventType))}</dd>
            <dt>{t('details.assetType')}</dt>
            <dd>{say(kindSaid(row.assetType))}</dd>
            <dt>{t('details.matter')}</dt>
            <dd>{row.matter ?? t('details.noMatter')}</dd>
            {watchedFolder && (
              <>
                <dt>{t('details.watchedFolder')}</dt>
                <dd>{watchedFolder.path}</dd>
              </>
            )}
            {row.followsId !== null && (
              <>
                <dt>{t('details.changedAfter')}</dt>
                <dd>
                  <button type="button" className="link" onClick={() => desk.set({ openId: row.followsId })}>
                    {t('details.earlierCertification', { id: row.followsId })}
                  </button>
                </dd>
              </>
            )}
          </dl>

          <h3>{t('details.when')}</h3>
          <dl className="facts">
            <dt>{t('details.certifiedAt')}</dt>
            <dd>
              <When ms={row.createdAt} />
            </dd>
            <dt>{t('details.anchoredAt')}</dt>
            <dd>{row.anchoredAt === null ? t('details.notAnchored') : <When ms={row.anchoredAt} />}</dd>
            <dt>{t('details.timeConfirmed')}</dt>
            <dd>
              <TimeConfirmed row={row} />
            </dd>
          </dl>

          <h3>{t('details.where')}</h3>
          <dl className="facts">
            <dt>{t('details.certifiedBy')}</dt>
            <dd>
              {personOf({ name: row.certifierName, firm: row.certifierFirm }) ??
                (row.certifiedBy
                  ? t('details.byOn', { user: row.certifiedBy, computer: row.certifiedOn ?? '?' })
                  : t('details.unknownPerson'))}
            </dd>
            <dt>{t('details.environment')}</dt>
            <dd>
              {environment.kind === 'embedded'
                ? t('environment.long.embedded')
                : t('environment.named', {
                    environment: t(`environment.long.${environment.kind}`),
                    name: environment.id,
                  })}
            </dd>
            <dt>{t('details.service')}</dt>
            <dd>
              {environment.kind === 'embedded'
                ? t('details.embeddedService')
                : (environment.baseUrl ?? t('details.unknownService'))}
            </dd>
          </dl>

          <h3>{t('details.timeline')}</h3>
          <ol className="timeline">
            {history.map((entry, index) => (
              <li key={index}>
                <When ms={entry.at} /> — {t(`details.states.${entry.state}`)}
                {entry.note ? ` — ${say(entry.note)}` : ''}
              </li>
            ))}
          </ol>

          <details className="technical">
            <summary>{t('details.technical')}</summary>
            <dl className="facts">
              <dt>{t('details.codes')}</dt>
              <dd>
                <code>{row.eventType}</code> · <code>{row.assetType}</code>
              </dd>
              <dt>{t('details.sourceSystem')}</dt>
              <dd>{row.sourceSystem}</dd>
              {row.certifiedBy && (row.certifierName || row.certifierFirm) && (
                <>
                  <dt>{t('verify.facts.login')}</dt>
                  <dd>{t('details.byOn', { user: row.certifiedBy, computer: row.certifiedOn ?? '?' })}</dd>
                </>
              )}
              <dt>{t('details.certificationId')}</dt>
              <dd>
                {row.serviceId ? (
                  <>
                    <code>{row.serviceId}</code> <CopyButton text={row.serviceId} />
                  </>
                ) : (
                  t('details.none')
                )}
              </dd>
              <dt>{t('details.requestId')}</dt>
              <dd>
                <code>{row.requestId}</code>
              </dd>
              <dt>{t('details.serviceState')}</dt>
              <dd>{serviceStateLabel(row.serviceState) ?? t('details.none')}</dd>
              <dt>{t('details.logPosition')}</dt>
              <dd>
                {position
                  ? t('details.entryOf', {
                      entry: format.number(position.entry),
                      of: format.number(position.of),
                    })
                  : t('details.none')}
              </dd>
              {row.state === 'pending' && row.errorMessage && (
                <>
                  <dt>{t('details.lastCheck')}</dt>
                  <dd>{say(row.errorMessage)}</dd>
                </>
              )}
              <dt>{t('details.evidenceCheck')}</dt>
              <dd>{row.verificationMessage ? say(row.verificationMessage) : t('details.notAnchoredYet')}</dd>
            </dl>
            {row.evidence !== null && row.evidence !== undefined && (
              <details>
                <summary>{t('details.evidence')}</summary>
                <pre tabIndex={0}>{JSON.stringify(row.evidence, null, 2)}</pre>
              </details>
            )}
            {row.rawResponse && (
              <details>
                <summary>{t('details.rawAnswer')}</summary>
                <pre tabIndex={0}>{row.rawResponse}</pre>
              </details>
            )}
          </details>
        </>
      )}
      {row && confirmingRemoval && (
        <div className="confirm" role="alertdialog" aria-label={t('details.removeQuestion')}>
          <p>
            <Trans
              i18nKey={row.state === 'failed' ? 'details.removeNeverAnchored' : 'details.removeNeverSent'}
              values={{ name: row.fileName }}
              components={{ strong: <strong /> }}
            />
          </p>
          <button type="button" onClick={() => setConfirmingRemoval(false)} autoFocus>
            {t('details.keep')}
          </button>
          <button type="button" className="danger" onClick={act('remove')}>
            {t('details.confirmRemove')}
          </button>
        </div>
      )}
      <div className="dialog-foot">
        {notice && <Notice notice={notice} onDismiss={() => desk.set({ notice: null })} />}
        {row?.state === 'anchored' && <DragOut id={row.id} />}
        <div className="actions">
          {row?.state === 'failed' && (
            <button type="button" onClick={act('retry')}>
              {t('details.sendAgain')}
            </button>
          )}
          {row?.state === 'anchored' && (
            <button type="button" onClick={() => onSaveCertificate(row)}>
              {t('details.saveCertificate')}
            </button>
          )}
          {row && (
            <button type="button" onClick={() => onSaveEvidence([row.id])}>
              {t('details.saveEvidence')}
            </button>
          )}
          {row && isRemovable(row) && !confirmingRemoval && (
            <button type="button" onClick={() => setConfirmingRemoval(true)}>
              {t('details.remove')}
            </button>
          )}
          {/* Not focused first: that would scroll a long panel to its end, past what a reader needs first. */}
          <button type="button" className="primary" onClick={onClose}>
            {t('details.close')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
