/**
 * A run's clock that moves only when the run sleeps: a wait the target asks for is counted, never
 * waited. A reference given the same `now` sees its windows and intervals pass with it.
 */
import type { Clock } from '../../core/client.js';

export function virtualClock(): { clock: Clock; sleeps: number[] } {
  let now = Date.now();
  const sleeps: number[] = [];
  return { sleeps, clock: { now: () => now, sleep: async (ms) => { sleeps.push(ms); now += ms; } } };
}
