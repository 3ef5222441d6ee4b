import type { RefObject } from 'react';
import { useLayoutEffect, useState } from 'react';

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

/**
 * The rows to draw for a scroll position: those in view and `overscan` more on each side. Rows
 * are all one height, so this costs the same for ten rows or a million (a general virtualizer
 * measured every row again each time the count changed: 1,000,000 on each refresh while a drop
 * was queued).
 */
export function rowWindow(
  view: { top: number; height: number },
  count: number,
  rowHeight: number,
  overscan: number,
): RowWindow {
  const natural = count * rowHeight;
  const height = Math.min(natural, MOST_SCROLL_HEIGHT);
  const scrollable = Math.max(0, height - view.height);
  const top = Math.min(Math.max(0, view.top), scrollable);
  // How far down the rows the view is, in pixels of rows (the scroll position, scaled past the limit).
  const into = scrollable > 0 ? (top / scrollable) * Math.max(0, natural - view.height) : 0;
  const first = Math.max(0, Math.floor(into / rowHeight) - overscan);
  const last = Math.min(count - 1, Math.ceil((into + view.height) / rowHeight) + overscan);
  const rows: RowInView[] = [];
  for (let index = first; index <= last; index++) rows.push({ index, start: top + index * rowHeight - into });
  return { height, rows };
}

/** The rows of a scrolled element to draw, following its scrolling and its size. */
export function useRowWindow(
  scroller: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  overscan: number,
): RowWindow {
  const [view, setView] = useState({ top: 0, height: 0 });
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const follow = () => {
      const next = { top: element.scrollTop, height: element.clientHeight };
      setView((now) => (now.top === next.top && now.height === next.height ? now : next));
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
