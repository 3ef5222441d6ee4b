import type { RefObject } from 'react';
import { useLayoutEffect, useRef, useState } from 'react';

// Chromium lays out at most about 33 million pixels: a million rows of 44 px would leave the last
// quarter where no scrolling reaches. Past this height the scrollbar stands for the rows in
// proportion instead of a pixel each.
export const MOST_SCROLL_HEIGHT = 8_000_000;

export interface RowInView {
  index: number;
  /** Its top within the scrolled content, in pixels. */
  start: number;
}

export interface RowWindow {
  /** The height of the scrolled content. */
  height: number;
  rows: RowInView[];
}

/** Where the view is: its scroll position, its height, and how far down the rows it is, in pixels of rows. */
export interface ListView {
  top: number;
  height: number;
  into: number;
}

const sizes = (count: number, rowHeight: number, viewHeight: number) => {
  const natural = count * rowHeight;
  const height = Math.min(natural, MOST_SCROLL_HEIGHT);
  return {
    natural,
    height,
    scrollable: Math.max(0, height - viewHeight),
    rows: Math.max(0, natural - viewHeight),
  };
};

/**
 * The view after the element scrolled to `top`. A step (a wheel's turn, an arrow, Page Down, a row
 * given focus) moves the rows by as many pixels, so no row is skipped; a jump (the scrollbar
 * dragged) goes to the same share of the rows. `scrollTop` is where the scrollbar must then stand
 * for that share: past the limit it differs from `top`.
 */
export function followScroll(
  before: ListView,
  top: number,
  viewHeight: number,
  count: number,
  rowHeight: number,
): { view: ListView; scrollTop: number } {
  const { natural, scrollable, rows } = sizes(count, rowHeight, viewHeight);
  // Within the limit a pixel is a pixel: the scrollbar is left where the browser put it.
  if (natural <= MOST_SCROLL_HEIGHT) return { view: { top, height: viewHeight, into: top }, scrollTop: top };
  const at = Math.min(Math.max(0, top), scrollable);
  const step = at - before.top;
  const into =
    at === 0
      ? 0
      : at === scrollable
        ? rows
        : Math.abs(step) <= viewHeight * 2
          ? Math.min(Math.max(0, before.into + step), rows)
          : (at / scrollable) * rows;
  const scrollTop = rows > 0 ? (into / rows) * scrollable : 0;
  return { view: { top: scrollTop, height: viewHeight, into }, scrollTop };
}

/**
 * The rows to draw for a view: those in it and `overscan` more on each side, none past the end.
 * Rows are all one height, so this costs the same for ten rows or a million (a general virtualizer
 * measured every row again each time the count changed: 1,000,000 on each refresh while a drop was
 * queued).
 */
export function rowWindow(view: ListView, count: number, rowHeight: number, overscan: number): RowWindow {
  const { height, rows: scrollRows } = sizes(count, rowHeight, view.height);
  const into = Math.min(Math.max(0, view.into), scrollRows);
  const first = Math.max(0, Math.floor(into / rowHeight) - overscan);
  const last = Math.min(count - 1, Math.ceil((into + view.height) / rowHeight) + overscan);
  const rows: RowInView[] = [];
  for (let index = first; index <= last; index++) {
    const start = view.top + index * rowHeight - into;
    // Drawn wholly outside the content (overscan, past the limit), a row is not drawn at all.
    if (start + rowHeight > 0 && start < height) rows.push({ index, start });
  }
  return { height, rows };
}

/** The rows of a scrolled element to draw, following its scrolling and its size. */
export function useRowWindow(
  scroller: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  overscan: number,
): RowWindow {
  const [view, setView] = useState<ListView>({ top: 0, height: 0, into: 0 });
  // Read by the scroll listener, which is added once.
  const current = useRef({ view, count, rowHeight });
  current.current = { view, count, rowHeight };
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const follow = () => {
      const { view: before, count: rows, rowHeight: size } = current.current;
      const next = followScroll(before, element.scrollTop, element.clientHeight, rows, size);
      if (Math.abs(element.scrollTop - next.scrollTop) >= 1) element.scrollTop = next.scrollTop;
      // Where the browser put the scrollbar (it rounds): the rows are placed from there.
      const view = { ...next.view, top: element.scrollTop };
      current.current.view = view;
      setView((now) =>
        now.top === view.top && now.height === view.height && now.into === view.into ? now : view,
      );
    };
    follow();
    const resized = new ResizeObserver(follow);
    resized.observe(element);
    element.addEventListener('scroll', follow, { passive: true });
    return () => {
      resized.disconnect();
      element.removeEventListener('scroll', follow);
    };
  }, [scroller]);
  return rowWindow(view, count, rowHeight, overscan);
}
