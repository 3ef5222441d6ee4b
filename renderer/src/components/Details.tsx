import { useEffect, useState } from 'react';
import { bridge, call } from '../bridge';
import { useView } from '../store';
import type { HistoryEntry, RowView } from '../types';
import { StateBadge } from './StateBadge';

interface FullRow extends RowView {
  rawResponse: string | null;
  evidence: string | null;
}

/** Everything about one certification, and what can still be done with it. */
export function Details({ id, onClose }: { id: number; onClose(): void }) {
  const version = useView((s) => s.rowsVersion);
  const offline = useView((s) => s.connectivity?.state === 'offline');
  const [details, setDetails] = useState<{ row: FullRow; history: HistoryEntry[] } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    call<{ row: FullRow; history: HistoryEntry[] }>(bridge().details({ id })).then(
      setDetails,
      (error: Error) => setProblem(error.message),
    );
  }, [id, version]);

  const act = (action: 'retry' | 'remove') => async () => {
    try {
      await call(bridge()[action]({ id }));
      if (action === 'remove') onClose();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  const row = details?.row;
  return (
    <div
      className="modal"
      role="dialog"
      aria-modal="true"
      aria-labelledby="details-title"
      onKeyDown={(event) => event.key === 'Escape' && onClose()}
    >
      <section className="panel wide">
        <h2 id="details-title">{row?.fileName ?? 'Certification'}</h2>
        {problem && (
          <p className="error" role="alert">
            {problem}
          </p>
        )}
        {row && (
          <>
            <StateBadge row={row} offline={offline} />
            <dl className="facts">
              <dt>SHA-256</dt>
              <dd>
                <code>{row.assetHash}</code>
              </dd>
              <dt>File</dt>
              <dd>{row.filePath}</dd>
              <dt>Request id</dt>
              <dd>
                <code>{row.requestId}</code>
              </dd>
              <dt>Service id</dt>
              <dd>{row.serviceId ?? '—'}</dd>
              <dt>Evidence</dt>
              <dd>{row.verificationMessage ?? 'Not anchored yet.'}</dd>
            </dl>
            <h3>Timeline</h3>
            <ol className="timeline">
              {details.history.map((entry, index) => (
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
        <div className="actions">
          {row?.state === 'failed' && (
            <button type="button" onClick={act('retry')}>
              Send again
            </button>
          )}
          {(row?.state === 'failed' || (row?.state === 'queued' && !row.serviceId)) && (
            <button type="button" onClick={act('remove')}>
              Remove
            </button>
          )}
          <button type="button" className="primary" onClick={onClose} autoFocus>
            Close
          </button>
        </div>
      </section>
    </div>
  );
}
