import type { LocalState, StateCounts } from '../../../protocol/states';
import { LOCAL_STATES, WAITING_STATES } from '../../../protocol/states';
import { useQuery } from '@tanstack/react-query';
import { ask, bridge } from '../bridge';
import { keys } from '../store';

export const FILTERS: readonly { label: string; states: readonly LocalState[] }[] = [
  { label: 'All', states: [] },
  { label: 'Waiting', states: WAITING_STATES },
  { label: 'Anchored', states: ['anchored'] },
  { label: 'Failed', states: ['failed'] },
];

const countOf = (counts: StateCounts, states: readonly LocalState[]) =>
  (states.length ? states : LOCAL_STATES).reduce((sum, state) => sum + counts[state], 0);

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
  const matters = useQuery({ queryKey: keys.matters, queryFn: () => ask(bridge().matters({})) }).data?.counts;
  const named = (matters ?? []).filter((entry) => entry.matter !== null);
  return (
    <div className="filters">
      <div role="group" aria-label="Show">
        {FILTERS.map(({ label, states }, index) => (
          <button key={label} type="button" aria-pressed={filter === index} onClick={() => onFilter(index)}>
            {label}
            {counts && ` (${countOf(counts, states)})`}
          </button>
        ))}
      </div>
      <label>
        Search{' '}
        <input
          type="search"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          placeholder="File name or hash"
        />
      </label>
      {(named.length > 0 || matter !== undefined) && (
        <label>
          Matter{' '}
          <select
            value={matter ?? ''}
            onChange={(event) => onMatter(event.target.value === '' ? undefined : event.target.value)}
          >
            <option value="">All matters</option>
            {named.map(({ matter: name, counts: byState }) => (
              <option key={name} value={name ?? ''}>
                {name} ({countOf(byState, [])})
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="button" onClick={onSaveEvidence}>
        Save evidence…
      </button>
      <button type="button" onClick={onExportRegister}>
        Export register…
      </button>
    </div>
  );
}
