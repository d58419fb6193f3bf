/**
 * Looking again at what a target finishes in the background (after a 202): soon at first, then
 * backing off, so a target that finishes at once is not waited on for a second, while a slow one
 * gets the same patience as before: looks until `boundMs` after the first.
 */

/** The first pause; each next one doubles. */
export const FIRST_LOOK_MS = 100;

/** The pauses between looks: doubling from FIRST_LOOK_MS, the last cut so they add up to `boundMs`. */
export function lookPauses(boundMs: number): number[] {
  const pauses: number[] = [];
  for (let total = 0, ms = FIRST_LOOK_MS; total < boundMs; total += pauses.at(-1)!, ms *= 2) pauses.push(Math.min(ms, boundMs - total));
  return pauses;
}

/** Reads until `done` holds of what was read, or the pauses add up to `boundMs`; answers the last read. */
export async function lookAgain<T>(sleep: (ms: number) => Promise<void>, read: () => Promise<T>, done: (seen: T) => boolean, boundMs: number): Promise<T> {
  let seen = await read();
  for (const ms of lookPauses(boundMs)) {
    if (done(seen)) return seen;
    await sleep(ms);
    seen = await read();
  }
  return seen;
}
