import type { LocalState, StateCounts } from '../../../protocol/states';
import { LOCAL_STATES, WAITING_STATES } from '../../../protocol/states';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { readMatters } from '../calls/reads';
import { keys } from '../store';

export const FILTERS: readonly {
  label: 'all' | 'waiting' | 'anchored' | 'failed';
  states: readonly LocalState[];
}[] = [
  { label: 'all', states: [] },
  { label: 'waiting', states: WAITING_STATES },
  { label: 'anchored', states: ['anchored'] },
  { label: 'failed', states: ['failed'] },
];

const countOf = (counts: StateCounts, states: readonly LocalState[]) =>
  (states.length ? states : LOCAL_STATES).reduce((sum, state) => sum + counts[state], 0);

/** The search field's id: Ctrl/Cmd+F goes there. */
export const SEARCH_FIELD = 'list-search';

/** Which certifications the list shows: a state filter with its count, and a search by name or hash. */
export function FilterBar({
  filter,
  onFilter,
  search,
  onSearch,
  matter,
  onMatter,
  counts,
  onSaveEvidence,
  onExportRegister,
}: {
  matter: string | undefined;
  onMatter(matter: string | undefined): void;
  /** Exports the custody register (CSV) of everything the list shows now. */
  onExportRegister(): void;
  filter: number;
  onFilter(index: number): void;
  search: string;
  onSearch(search: string): void;
  counts: StateCounts | undefined;
  /** Saves the evidence kit of everything the list shows now. */
  onSaveEvidence(): void;
}) {
  const { t } = useTranslation();
  const matters = useQuery({ queryKey: keys.matters, queryFn: readMatters }).data?.counts;
  const named = (matters ?? []).filter((entry) => entry.matter !== null);
  return (
    <div className="filters">
      <div role="group" aria-label={t('filters.show')}>
        {FILTERS.map(({ label, states }, index) => (
          <button key={label} type="button" aria-pressed={filter === index} onClick={() => onFilter(index)}>
            {counts
              ? t('filters.withCount', { label: t(`filters.${label}`), count: countOf(counts, states) })
              : t(`filters.${label}`)}
          </button>
        ))}
      </div>
      <label>
        <span className="search-word">{t('filters.search')} </span>
        <input
          id={SEARCH_FIELD}
          // Wide enough for its hint in every language ("Dateiname oder Fingerabdruck").
          size={[...t('filters.searchPlaceholder')].length + 2}
          type="search"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          placeholder={t('filters.searchPlaceholder')}
        />
      </label>
      {(named.length > 0 || matter !== undefined) && (
        <label>
          {t('filters.matter')}{' '}
          <select
            value={matter ?? ''}
            onChange={(event) => onMatter(event.target.value === '' ? undefined : event.target.value)}
          >
            <option value="">{t('filters.allMatters')}</option>
            {named.map(({ matter: name, counts: byState }) => (
              <option key={name} value={name ?? ''}>
                {name} ({countOf(byState, [])})
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="button" onClick={onSaveEvidence}>
        {t('filters.saveEvidence')}
      </button>
      <button type="button" onClick={onExportRegister}>
        {t('filters.exportRegister')}
      </button>
    </div>
  );
}
