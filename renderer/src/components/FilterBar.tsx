import type { LocalState, StateCounts } from '../../../protocol/states';
import { LOCAL_STATES, WAITING_STATES } from '../../../protocol/states';

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
  counts,
  onSaveEvidence,
}: {
  filter: number;
  onFilter(index: number): void;
  search: string;
  onSearch(search: string): void;
  counts: StateCounts | undefined;
  /** Saves the evidence kit of everything the list shows now. */
  onSaveEvidence(): void;
}) {
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
      <button type="button" onClick={onSaveEvidence}>
        Save evidence…
      </button>
    </div>
  );
}
