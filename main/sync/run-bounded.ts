/**
 * Runs what `next` hands out with at most `limit` in flight, each lane asking for more as soon as
 * its last finished; resolves when `next` has nothing left and every lane is done. A round of 32
 * waited for its slowest request before the next began: the service was sent a third less than
 * it could take.
 */
export async function runLanes(next: () => (() => Promise<void>) | undefined, limit: number): Promise<void> {
  const lane = async () => {
    for (let task = next(); task; task = next()) await task();
  };
  await Promise.all(Array.from({ length: limit }, lane));
}
