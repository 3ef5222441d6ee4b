import type { TFunction } from 'i18next';
import { SET_LINES_SHOWN, SET_VERDICTS } from '../../protocol/sets';
import type { SetResult, SetSummary, SetVerdict } from '../../protocol/sets';
import { filled } from './page-words';
import { verdictWords } from './set-check';

/** What the set view writes its lines in: the page's language, its catalogue and its times. */
export interface SetViewWords {
  language: string;
  app: TFunction<'app'>;
  when(iso: string): string;
  linesShown: string;
}

/** The set's verdict: its headline, the counts, and DEMO when its reference was made on a sandbox. */
export function showSetResult(
  element: HTMLElement,
  look: string,
  headline: string,
  text: string,
  demo: string | null,
  seal: string[] = [],
): void {
  element.className = `result ${look}`;
  const paragraph = (className: string, textContent: string) =>
    Object.assign(document.createElement('p'), { className, textContent });
  element.replaceChildren(
    Object.assign(document.createElement('strong'), { textContent: headline }),
    ` ${text}`,
    // The kit's seal on lines of its own: what it covers, and each file that no longer matches it.
    ...seal.map((line) => paragraph('seal', line)),
    ...(demo ? [paragraph('demo', demo)] : []),
  );
}

/**
 * The set's lines (problems first, at most SET_LINES_SHOWN of each verdict), with a caption when
 * not all are shown, and the filters above them.
 */
export function showSetLines(
  page: { table: HTMLTableElement; caption: HTMLElement; filters: HTMLElement },
  lines: { shown: SetResult[]; total: number; counts: SetSummary['counts'] },
  { language, app, when, linesShown }: SetViewWords,
): void {
  const { table, caption, filters } = page;
  table.hidden = lines.shown.length === 0;
  caption.hidden = lines.shown.length === lines.total;
  caption.textContent = filled(linesShown, {
    shown: lines.shown.length.toLocaleString(language),
    total: lines.total.toLocaleString(language),
    each: SET_LINES_SHOWN,
  });
  table.querySelector('tbody')?.replaceChildren(
    ...lines.shown.map((result) => {
      const row = document.createElement('tr');
      row.dataset.verdict = result.verdict;
      const signedAt = result.entry?.certification?.signedAt;
      for (const text of [
        result.name,
        language === 'en' ? verdictWords(result) : app(`verifySet.verdicts.${result.verdict}`),
        signedAt ? app('verifySet.signed', { when: when(signedAt) }) : '',
      ])
        row.append(Object.assign(document.createElement('td'), { textContent: text }));
      return row;
    }),
  );
  filters.setAttribute('aria-label', app('verifySet.show'));
  showSetFilters(filters, table, lines.counts, lines.total, (verdict, count) =>
    verdict === 'all'
      ? app('verifySet.all', { count })
      : `${app(`verifySet.verdicts.${verdict}`)} (${count.toLocaleString(language)})`,
  );
}

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
