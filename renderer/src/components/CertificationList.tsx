import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { bridge, call } from '../bridge';
import { useView } from '../store';
import type { LocalState, RowView } from '../types';
import { StateBadge } from './StateBadge';

const PAGE = 200;
const ROW_HEIGHT = 44;

interface Props {
  states: LocalState[];
  search: string;
  onOpen(row: RowView): void;
}

/** Every certification, newest first, fetched page by page as it scrolls into view. */
export function CertificationList({ states, search, onOpen }: Props) {
  const version = useView((s) => s.rowsVersion);
  const offline = useView((s) => s.connectivity?.state === 'offline');
  const [pages, setPages] = useState(new Map<number, RowView[]>());
  // Unknown until the first page answers; every page brings the current total with it.
  const [total, setTotal] = useState<number | null>(null);
  const loading = useRef(new Set<number>());
  const scroller = useRef<HTMLDivElement>(null);

  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();

  const startOver = () => {
    setPages(new Map());
    loading.current.clear();
  };
  // New filter or search: start over, length unknown.
  useEffect(() => {
    startOver();
    setTotal(null);
  }, [states, search]);
  // Rows changed (a new batch, a state moved): refetch the pages on screen, at most a few times a second.
  useEffect(() => {
    const timer = setTimeout(startOver, 250);
    return () => clearTimeout(timer);
  }, [version]);

  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => {
    for (let page = Math.floor(first / PAGE); page <= Math.floor(last / PAGE); page++) {
      if (pages.has(page) || loading.current.has(page)) continue;
      loading.current.add(page);
      const query = {
        states: states.length ? states : undefined,
        search: search || undefined,
        limit: PAGE,
        offset: page * PAGE,
      };
      void call<{ rows: RowView[]; total: number }>(bridge().list(query)).then(({ rows, total: found }) => {
        setTotal(found);
        setPages((current) => new Map(current).set(page, rows));
      });
    }
  }, [first, last, pages, states, search]);

  const rowAt = (index: number): RowView | undefined => pages.get(Math.floor(index / PAGE))?.[index % PAGE];
  const filtered = states.length > 0 || search !== '';

  return (
    <div className="list" role="table" aria-label="Certifications" aria-rowcount={total ?? -1}>
      <div className="list-head" role="row">
        <span role="columnheader">File</span>
        <span role="columnheader">Hash</span>
        <span role="columnheader">Event</span>
        <span role="columnheader">State</span>
        <span role="columnheader">Added</span>
      </div>
      <div ref={scroller} className="list-body" data-testid="list-body">
        {total === 0 ? (
          <p className="empty">
            {filtered
              ? 'No certification matches.'
              : 'Nothing here yet. Drop documents anywhere in this window, or use “Add files”.'}
          </p>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = rowAt(item.index);
              return (
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={item.index + 1}
                  className="list-row"
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    height: ROW_HEIGHT,
                    transform: `translateY(${item.start}px)`,
                  }}
                >
                  {row ? (
                    <>
                      <span role="cell" className="file">
                        <button
                          type="button"
                          className="link"
                          onClick={() => onOpen(row)}
                          title={row.filePath}
                        >
                          {row.fileName}
                        </button>
                      </span>
                      <span role="cell" className="hash">
                        <code>{row.assetHash.slice(0, 12)}…</code>
                        <button
                          type="button"
                          className="copy"
                          aria-label={`Copy the full hash of ${row.fileName}`}
                          onClick={() => void navigator.clipboard?.writeText(row.assetHash)}
                        >
                          Copy
                        </button>
                      </span>
                      <span role="cell">{row.eventType}</span>
                      <span role="cell">
                        <StateBadge row={row} offline={offline} />
                      </span>
                      <span role="cell">{new Date(row.createdAt).toLocaleString()}</span>
                    </>
                  ) : (
                    <span role="cell" className="loading">
                      Loading…
                    </span>
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
