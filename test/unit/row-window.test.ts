import { describe, expect, it } from 'vitest';
import type { ListView } from '../../renderer/src/hooks/useRowWindow';
import { MOST_SCROLL_HEIGHT, followScroll, rowWindow } from '../../renderer/src/hooks/useRowWindow';

// The list draws only the rows in view. A million rows of 44 px are taller than Chromium lays out
// (about 33 million pixels): the last ones must still be reached, and stepping through them (the
// wheel, Page Down, a row given focus) must never skip one.
const VIEW = 440;
const ROW = 44;
const MILLION = 1_000_000;
const at = (top: number, into = top): ListView => ({ top, height: VIEW, into });

describe("the list's rows in view", () => {
  it('are those under the scroll position, a row height each, and a few more on each side', () => {
    const shown = rowWindow(at(4400), 1000, ROW, 2);
    expect(shown.height).toBe(44_000);
    expect(shown.rows.map((row) => row.index)).toEqual(Array.from({ length: 15 }, (_, i) => 98 + i));
    expect(shown.rows.find((row) => row.index === 100)?.start).toBe(4400);
  });

  it('reach the last of a million rows when the scrollbar is dragged to the bottom, and the middle halfway', () => {
    const start = followScroll(at(0), 0, VIEW, MILLION, ROW);
    const { height } = rowWindow(start.view, MILLION, ROW, 0);
    expect(height).toBe(MOST_SCROLL_HEIGHT);
    const bottom = followScroll(start.view, height - VIEW, VIEW, MILLION, ROW);
    expect(rowWindow(bottom.view, MILLION, ROW, 0).rows.at(-1)).toEqual({
      index: MILLION - 1,
      start: height - ROW,
    });
    const middle = followScroll(start.view, (height - VIEW) / 2, VIEW, MILLION, ROW);
    expect(Math.abs(rowWindow(middle.view, MILLION, ROW, 0).rows[0]!.index - MILLION / 2)).toBeLessThan(10);
    expect(rowWindow(followScroll(bottom.view, 0, VIEW, MILLION, ROW).view, MILLION, ROW, 0).rows[0]).toEqual(
      {
        index: 0,
        start: 0,
      },
    );
  });

  it('move by the rows a step scrolls, never skipping one, and keep the scrollbar where the rows are', () => {
    // Page Down, a hundred times, from somewhere in the middle of a million.
    let view = followScroll(at(0), MOST_SCROLL_HEIGHT / 3, VIEW, MILLION, ROW).view;
    let lastShown = rowWindow(view, MILLION, ROW, 0).rows.at(-1)!.index;
    for (let page = 0; page < 100; page++) {
      const next = followScroll(view, view.top + VIEW - ROW, VIEW, MILLION, ROW);
      const rows = rowWindow(next.view, MILLION, ROW, 0).rows;
      expect(rows[0]!.index).toBeLessThanOrEqual(lastShown);
      lastShown = rows.at(-1)!.index;
      // The scrollbar stands for the same share of the rows as the view.
      expect(next.scrollTop / (MOST_SCROLL_HEIGHT - VIEW)).toBeCloseTo(
        next.view.into / (MILLION * ROW - VIEW),
        6,
      );
      // Rows follow each other without gaps or overlaps.
      rows.slice(1).forEach((row, i) => expect(row.start - rows[i]!.start).toBe(ROW));
      view = next.view;
    }
  });

  it('are none for an empty list, and stop at the last row of a short one', () => {
    expect(rowWindow(at(0), 0, ROW, 12).rows).toEqual([]);
    expect(rowWindow(at(0), 3, ROW, 12).rows.map((row) => row.index)).toEqual([0, 1, 2]);
  });
});
