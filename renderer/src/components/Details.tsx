import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { serviceStateLabel } from '../../../protocol/service-states';
import { isRemovable } from '../../../protocol/states';
import { ask, bridge, messageOf } from '../bridge';
import { useStatus } from '../hooks/useStatus';
import { keys, useLive } from '../store';
import { Dialog } from './Dialog';
import { StateBadge } from './StateBadge';

/** Everything about one certification, and what can still be done with it. Kept current by the change stream. */
export function Details({
  id,
  onClose,
  onSaveEvidence,
}: {
  id: number;
  onClose(): void;
  onSaveEvidence(ids: number[]): void;
}) {
  const offline = useLive((s) => s.connectivity?.state === 'offline');
  const demo = useStatus().data?.profile.demo ?? false;
  const details = useQuery({ queryKey: keys.details(id), queryFn: () => ask(bridge().details({ id })) });
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);

  const act = (action: 'retry' | 'remove' | 'showInFolder') => async () => {
    try {
      await ask(bridge()[action]({ id }));
      if (action === 'remove') onClose();
    } catch (error) {
      setProblem(messageOf(error));
    }
  };

  const row = details.data?.row;
  const history = details.data?.history ?? [];
  return (
    <Dialog title={row?.fileName ?? 'Certification'} onClose={onClose} wide>
      {details.isPending && <p className="hint">Loading…</p>}
      {(problem ?? details.error) && (
        <p className="error" role="alert">
          {problem ?? messageOf(details.error)}
        </p>
      )}
      {row && (
        <>
          <StateBadge row={row} offline={offline} />
          {demo && (
            <p className="demo-mark">DEMO — made on a sandbox: real cryptography, but no legal weight.</p>
          )}
          <dl className="facts">
            <dt>SHA-256</dt>
            <dd>
              <code>{row.assetHash}</code>
            </dd>
            <dt>File</dt>
            <dd>
              {row.filePath}{' '}
              <button type="button" className="copy" onClick={act('showInFolder')}>
                Show in folder
              </button>
            </dd>
            <dt>Matter</dt>
            <dd>{row.matter ?? 'None given'}</dd>
            <dt>Request id</dt>
            <dd>
              <code>{row.requestId}</code>
            </dd>
            <dt>Service id</dt>
            <dd>{row.serviceId ?? '—'}</dd>
            <dt>Service state</dt>
            <dd>{serviceStateLabel(row.serviceState) ?? '—'}</dd>
            {row.state === 'pending' && row.errorMessage && (
              <>
                <dt>Last check</dt>
                <dd>{row.errorMessage}</dd>
              </>
            )}
            <dt>Evidence</dt>
            <dd>{row.verificationMessage ?? 'Not anchored yet.'}</dd>
          </dl>
          <h3>Timeline</h3>
          <ol className="timeline">
            {history.map((entry, index) => (
              <li key={index}>
                <time>{new Date(entry.at).toLocaleString()}</time> {entry.state}
                {entry.note ? ` — ${entry.note}` : ''}
              </li>
            ))}
          </ol>
          {row.evidence && (
            <details>
              <summary>Evidence</summary>
              <pre>{JSON.stringify(JSON.parse(row.evidence), null, 2)}</pre>
            </details>
          )}
          {row.rawResponse && (
            <details>
              <summary>The service's last answer, as received</summary>
              <pre>{row.rawResponse}</pre>
            </details>
          )}
        </>
      )}
      {row && confirmingRemoval && (
        <div className="confirm" role="alertdialog" aria-label="Remove this certification?">
          <p>
            Remove <strong>{row.fileName}</strong> from the list? It was{' '}
            {row.state === 'failed' ? 'never anchored' : 'never sent'}. The register will record that you
            removed it.
          </p>
          <button type="button" onClick={() => setConfirmingRemoval(false)} autoFocus>
            Keep it
          </button>
          <button type="button" className="danger" onClick={act('remove')}>
            Remove
          </button>
        </div>
      )}
      <div className="actions">
        {row?.state === 'failed' && (
          <button type="button" onClick={act('retry')}>
            Send again
          </button>
        )}
        {row && (
          <button type="button" onClick={() => onSaveEvidence([row.id])}>
            Save evidence…
          </button>
        )}
        {row && isRemovable(row) && !confirmingRemoval && (
          <button type="button" onClick={() => setConfirmingRemoval(true)}>
            Remove…
          </button>
        )}
        <button type="button" className="primary" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}
