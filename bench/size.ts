/**
 * How much work each benchmark does. `BENCH_SCALE` shrinks all of it: `npm test` runs every
 * benchmark at 0.002 (each above its floor), so a change that breaks one fails CI without waiting for the real figures.
 */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);

export const sized = (n: number, least = 1): number => Math.max(least, Math.round(n * SCALE));
