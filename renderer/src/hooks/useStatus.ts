import { useQuery } from '@tanstack/react-query';
import { readStatus } from '../calls/reads';
import type { StatusView } from '../store';
import { desk, keys, useDesk } from '../store';

async function statusNow(): Promise<StatusView> {
  const { connectivity, ...status } = await readStatus();
  // An announcement that came before this answer is newer than it: the answer only fills a gap.
  if (desk.get().connectivity === null) desk.set({ connectivity });
  return status;
}

/** The active profile, counts and connection: read once, then kept current by the change stream. */
export function useStatus() {
  // Read again hourly too: evidence records fall due, or past their end, with the clock alone.
  const query = useQuery({ queryKey: keys.status, queryFn: statusNow, refetchInterval: 3_600_000 });
  const connectivity = useDesk((state) => state.connectivity);
  return { ...query, connectivity };
}
