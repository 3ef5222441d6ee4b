import { useQueries } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { LocalState } from '../../../protocol/states';
import type { ListSort, RowView, SortColumn } from '../../../protocol/views';
import { messageOf } from '../bridge';
import { readList } from '../calls/reads';
import { keys, useDesk } from '../store';
import { StateBadge } from './StateBadge';
import { TimeMark } from './TimeMark';
import { WatchedFrom } from './WatchedFrom';
import { useRowHeight } from '../hooks/useRowHeight';
import { useRowWindow } from '../hooks/useRowWindow';
import type { RowMenuAt } from './RowMenu';
import { RowMenu } from './RowMenu';
import { useTranslation } from 'react-i18next';
import { When, useSay } from '../i18n';
import { eventSaid } from '../../../protocol/vocabulary';

// A screen and its overscan: a page of 200 took three times as long to reach the window (a filter
// showed its answer after 170 ms instead of 55, bench/desk-at-a-million.ts).
const PAGE = 50;
// Matters longer than this are cut with "…" (the whole matter shows on hover and in the details).
const MATTER_MOST_CH = 30;

interface Props {
  states: readonly LocalState[];
  search: string;
  /** Only this matter's certifications; undefined for all. */
  matter: string | undefined;
  sort: ListSort;
  onSort(sort: ListSort): void;
  onOpen(row: RowView): void;
  /** The rows chosen with their checkboxes, to save, export or send again together. */
  selected: ReadonlyMap<number, RowView>;
  onToggle(row: RowView): void;
  /** Everything shown is chosen (the header's box); rows are then ticked and cannot be unticked one by one. */
  allShown: boolean;
  onToggleAll(): void;
}

const COLUMNS: { column: SortColumn; first: ListSort['direction'] }[] = [
  { column: 'file', first: 'asc' },
  { column: 'matter', first: 'asc' },
  { column: 'event', first: 'asc' },
  { column: 'state', first: 'asc' },
  { column: 'added', first: 'desc' },
];

/**
 * Every certification, newest first, fetched page by page as it scrolls into view. Each page is
 * a query: the change stream refreshes those on screen, and a page that fails to load says so
 * and offers to try again rather than spinning forever.
 */
export function CertificationList({
  states,
  search,
  matter,
  sort,
  onSort,
  onOpen,
  selected,
  onToggle,
  allShown,
  onToggleAll,
}: Props) {
  const { t } = useTranslation();
  const offline = useDesk((s) => s.connectivity?.state === 'offline');
  const scroller = useRef<HTMLDivElement>(null);
  // Known from the last page that answered for this filter; unknown (null) until one has.
  const [total, setTotal] = useState<{ for: string; count: number } | null>(null);
  const [menu, setMenu] = useState<RowMenuAt | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const filterKey = JSON.stringify([states, search, matter, sort]);
  const count = total?.for === filterKey ? total.count : null;

  const rowHeight = useRowHeight();
  const shown = useRowWindow(scroller, count ?? 0, rowHeight, 12);
  const items = shown.rows;
  const firstPage = Math.floor((items[0]?.index ?? 0) / PAGE);
  const lastPage = Math.floor((items.at(-1)?.index ?? 0) / PAGE);
  const pageNumbers = Array.from({ length: lastPage - firstPage + 1 }, (_, i) => firstPage + i);

  const pages = useQueries({
    queries: pageNumbers.map((page) => ({
      queryKey: keys.list(filterKey, page),
      queryFn: () =>
        readList({
          states: states.length ? [...states] : undefined,
          search: search || undefined,
          matter,
          sort,
          limit: PAGE,
          offset: page * PAGE,
        }),
    })),
  });
  // Every page brings the current total for the filter with it; the list never guesses its length.
  const answered = pages.find((page) => page.data)?.data?.total;
  useEffect(() => {
    if (answered !== undefined) setTotal({ for: filterKey, count: answered });
  }, [answered, filterKey]);
  const failed = pages.find((page) => page.error);

  // Room for the longest matter on the pages shown (a matter cut short is a matter misread).
  const longestMatter = Math.max(
    0,
    ...pages.flatMap((page) => page.data?.rows.map((row) => [...(row.matter ?? '')].length) ?? []),
  );
  const matterWidth =
    longestMatter > 0 ? `minmax(6ch, min(${Math.min(MATTER_MOST_CH, longestMatter + 1)}ch, 30%))` : undefined;

  const rowAt = (index: number): RowView | undefined =>
    pages[Math.floor(index / PAGE) - firstPage]?.data?.rows[index % PAGE];
  const filtered = states.length > 0 || search !== '' || matter !== undefined;

  return (
    <div
      className="list"
      role="table"
      aria-label={t('list.label')}
      // The heading is a row too: it is row 1, the first certification row 2.
      aria-rowcount={count === null ? -1 : count + 1}
      style={matterWidth ? ({ '--matter-width': matterWidth } as React.CSSProperties) : undefined}
    >
      <div className="list-head" role="row" aria-rowindex={1}>
        <span role="columnheader" className="select">
          <input
            type="checkbox"
            checked={allShown}
            onChange={onToggleAll}
            disabled={count === 0}
            aria-label={t('list.chooseAll')}
            title={t('list.chooseAll')}
          />
        </span>
        {COLUMNS.map(({ column, first }) => {
          const current = sort.column === column;
          const next = current ? (sort.direction === 'asc' ? 'desc' : 'asc') : first;
          return (
            <span
              key={column}
              className={`col-${column}`}
              role="columnheader"
              aria-sort={current ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
            >
              <button type="button" className="sort" onClick={() => onSort({ column, direction: next })}>
                {t(`list.columns.${column}`)}
                <span aria-hidden="true">{current ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
              </button>
            </span>
          );
        })}
      </div>
      {failed && (
        <div className="list-error" role="alert">
          <span>{t('list.notLoaded', { reason: messageOf(failed.error) })}</span>
          <button type="button" onClick={() => void failed.refetch()}>
            {t('list.tryAgain')}
          </button>
        </div>
      )}
      <div ref={scroller} className="list-body" data-testid="list-body">
        {count === 0 && !failed ? (
          <p className="empty">{filtered ? t('list.noMatch') : t('list.empty')}</p>
        ) : (
          // Clipped: a row drawn past the end must not lengthen what the scrollbar stands for.
          <div style={{ height: shown.height, position: 'relative', overflow: 'hidden' }}>
            {items.map((item) => {
              const row = rowAt(item.index);
              return (
                <div
                  key={item.index}
                  role="row"
                  aria-rowindex={item.index + 2}
                  className="list-row"
                  onContextMenu={(event) => {
                    if (!row) return;
                    event.preventDefault();
                    // The keyboard's menu key has no pointer position: the menu opens at the row.
                    const box = event.currentTarget.getBoundingClientRect();
                    const byKeyboard = event.clientX === 0 && event.clientY === 0;
                    setMenu({
                      row,
                      x: byKeyboard ? box.left + 40 : event.clientX,
                      y: byKeyboard ? box.bottom : event.clientY,
                    });
                  }}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    height: rowHeight,
                    transform: `translateY(${item.start}px)`,
                  }}
                >
                  {row ? (
                    <Row
                      row={row}
                      offline={offline}
                      onOpen={onOpen}
                      chosen={allShown || selected.has(row.id)}
                      allShown={allShown}
                      onToggle={onToggle}
                    />
                  ) : (
                    <RowPlaceholder failed={!!failed} />
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
      {menu && <RowMenu at={menu} onClose={closeMenu} />}
    </div>
  );
}

function Row({
  row,
  offline,
  onOpen,
  chosen,
  allShown,
  onToggle,
}: {
  row: RowView;
  offline: boolean;
  onOpen(row: RowView): void;
  chosen: boolean;
  allShown: boolean;
  onToggle(row: RowView): void;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const [tip, setTip] = useState<DOMRect | null>(null);
  return (
    <>
      <span role="cell" className="select">
        <input
          type="checkbox"
          checked={chosen}
          disabled={allShown}
          onChange={() => onToggle(row)}
          aria-label={t('list.choose', { name: row.fileName })}
        />
      </span>
      <span role="cell" className="file">
        <button
          type="button"
          className="link"
          onClick={() => onOpen(row)}
          title={row.filePath}
          onFocus={(event) => setTip(event.currentTarget.getBoundingClientRect())}
          onBlur={() => setTip(null)}
        >
          {row.fileName}
        </button>
        <WatchedFrom folderId={row.watchedFolderId} />
        {/* The whole path for keyboard users too, who never hover: shown while the name has focus. */}
        {tip &&
          createPortal(
            <div className="focus-tip" role="tooltip" style={{ left: tip.left, top: tip.bottom + 4 }}>
              {row.filePath}
            </div>,
            document.body,
          )}
      </span>
      <span role="cell" className="matter" title={row.matter ?? undefined}>
        {row.matter ?? t('list.noMatter')}
      </span>
      <span role="cell" className="event" title={row.eventType}>
        {say(eventSaid(row.eventType))}
      </span>
      <span role="cell" className="state">
        <StateBadge row={row} offline={offline} withReason />
        <TimeMark row={row} />
      </span>
      <span role="cell" className="added">
        <When ms={row.createdAt} short />
      </span>
    </>
  );
}

function RowPlaceholder({ failed }: { failed: boolean }) {
  const { t } = useTranslation();
  return (
    <span role="cell" className="loading">
      {failed ? t('list.notLoadedRow') : t('list.loading')}
    </span>
  );
}
