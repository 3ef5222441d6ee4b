import { useQuery } from '@tanstack/react-query';
import { ask, bridge } from '../bridge';
import { keys, useLive } from '../store';

/** The active profile, counts and connection: read once, then kept current by the change stream. */
export function useStatus() {
  const query = useQuery({ queryKey: keys.status, queryFn: () => ask(bridge().status({})) });
  const liveConnectivity = useLive((s) => s.connectivity);
  return {
    ...query,
    connectivity: liveConnectivity ?? query.data?.connectivity ?? null,
  };
}
