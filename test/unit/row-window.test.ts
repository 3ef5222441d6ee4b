import { describe, expect, it } from 'vitest';
import { MOST_SCROLL_HEIGHT, rowWindow } from '../../renderer/src/hooks/useRowWindow';

// The list draws only the rows in view. A million rows of 44 px are taller than Chromium lays out
// (about 33 million pixels): the last ones must still be reached by scrolling to the bottom.
describe("the list's rows in view", () => {
  const view = (top: number) => ({ top, height: 440 });

  it('are those under the scroll position, a row height each, and a few more on each side', () => {
    const shown = rowWindow(view(4400), 1000, 44, 2);
    expect(shown.height).toBe(44_000);
    expect(shown.rows.map((row) => row.index)).toEqual([
      98,
      99,
      ...Array.from({ length: 11 }, (_, i) => 100 + i),
      111,
      112,
    ]);
    expect(shown.rows.find((row) => row.index === 100)?.start).toBe(4400);
  });

  it('reach the last of a million rows at the bottom, the first at the top, and the middle halfway', () => {
    const count = 1_000_000;
    const { height } = rowWindow(view(0), count, 44, 0);
    expect(height).toBe(MOST_SCROLL_HEIGHT);
    const bottom = rowWindow(view(height - 440), count, 44, 0);
    expect(bottom.rows.at(-1)).toEqual({ index: count - 1, start: height - 44 });
    expect(rowWindow(view(0), count, 44, 0).rows[0]).toEqual({ index: 0, start: 0 });
    const middle = rowWindow(view((height - 440) / 2), count, 44, 0).rows[0]!.index;
    expect(Math.abs(middle - count / 2)).toBeLessThan(10);
    // Rows follow each other without gaps or overlaps, wherever the view is.
    const rows = rowWindow(view(1_234_567), count, 44, 3).rows;
    rows.slice(1).forEach((row, i) => expect(row.start - rows[i]!.start).toBe(44));
  });

  it('are none for an empty list, and stop at the last row of a short one', () => {
    expect(rowWindow(view(0), 0, 44, 12).rows).toEqual([]);
    expect(rowWindow(view(0), 3, 44, 12).rows.map((row) => row.index)).toEqual([0, 1, 2]);
  });
});
