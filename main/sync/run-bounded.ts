/** A lane's work; it may hand its lane the next itself (a row claimed in the commit of its answer). */
export type LaneTask = () => Promise<LaneTask | undefined>;

/**
 * Runs what `next` hands out with at most `limit` in flight, each lane asking for more as soon as
 * its last finished; resolves when `next` has nothing left and every lane is done. A round of 32
 * waited for its slowest request before the next began: the service was sent a third less than
 * it could take.
 */
export async function runLanes(next: () => LaneTask | undefined, limit: number): Promise<void> {
  const lane = async () => {
    for (let task = next(); task;) task = (await task()) ?? next();
  };
  await Promise.all(Array.from({ length: limit }, lane));
}
