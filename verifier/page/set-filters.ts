import { SET_VERDICTS } from '../../protocol/sets';
import type { SetVerdict } from '../../protocol/sets';

/**
 * The set view's filters, as the app has them: All, then each verdict with its count, problems
 * first. Choosing one shows only its lines; the counts are of the whole set, not of the lines shown.
 */
export function showSetFilters(
  group: HTMLElement,
  table: HTMLTableElement,
  counts: Record<SetVerdict, number>,
  total: number,
  label: (verdict: SetVerdict | 'all', count: number) => string,
): void {
  const buttons = [
    { verdict: 'all' as const, count: total },
    ...SET_VERDICTS.map((verdict) => ({ verdict, count: counts[verdict] })),
  ].map(({ verdict, count }) => {
    const button = Object.assign(document.createElement('button'), {
      type: 'button',
      textContent: label(verdict, count),
    });
    button.setAttribute('aria-pressed', String(verdict === 'all'));
    button.addEventListener('click', () => {
      for (const other of group.querySelectorAll('button')) other.setAttribute('aria-pressed', 'false');
      button.setAttribute('aria-pressed', 'true');
      for (const row of table.querySelectorAll<HTMLTableRowElement>('tbody tr'))
        row.hidden = verdict !== 'all' && row.dataset.verdict !== verdict;
    });
    return button;
  });
  group.replaceChildren(...buttons);
  group.hidden = total === 0;
}
