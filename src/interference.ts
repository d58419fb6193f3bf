/**
 * Which checks must not overlap while one of them is parked (src/turns.ts). A polling check reads,
 * waits out X-Poll-Interval while other checks run, then sends the read's validator back: a write in
 * between that changes what it polls would turn a correct 304 into a 200. What each write may change
 * is spec data (spec/catalogue.ts WRITE_EFFECTS); a write that cannot change it runs during the wait.
 */
import { WRITE_EFFECTS } from '../spec/catalogue.js';
import { areasWritten, type CheckSpec, type Suite } from '../core/suite.js';

/** What this run lets checks do: write (--allow-writes), spend a rate-limit window (--exhaust-rate-limit). */
export interface Allowed {
  writes: boolean;
  exhausts: boolean;
}

/** Whether `write`, run between the read and the conditional request of `poll`, may change what `poll` polls. */
export function disturbs(write: CheckSpec, poll: CheckSpec): boolean {
  const polled = poll.polls;
  return !!polled && areasWritten(write).some((area) => WRITE_EFFECTS[area].includes(polled));
}

/**
 * Whether `check`, about to begin, must wait until `parked` is done: a check spending a rate-limit
 * window waits for every parked check; a write (or a read that may write besides), for the polling
 * checks it could disturb and for any other parked check (what that one reads is not declared); a
 * polling check, for a parked write that could disturb it.
 */
export function waitsFor(check: CheckSpec, parked: CheckSpec, allowed: Allowed): boolean {
  if (check.exhausts && allowed.exhausts) return true;
  if (areasWritten(check).length && allowed.writes) return !parked.polls || disturbs(check, parked);
  return !!check.polls && allowed.writes && disturbs(parked, check);
}

/** When each polling check begins: `now`, or right after the check at a plan index (`after`). */
export interface PollStarts {
  now: number[];
  after: Map<number, number[]>;
}

/**
 * The first polling check reached (plan index `first`) brings every later one forward, so their
 * waits are one; but a polling check that a write still ahead in the first one's scenario module
 * could disturb begins right after the last such write: the module keeps its order, and its writes
 * run before those reads instead of waiting a whole poll interval for them.
 */
export function pollStarts(planned: readonly { module: Suite; spec: CheckSpec }[], first: number, allowed: Allowed): PollStarts {
  const starts: PollStarts = { now: [], after: new Map() };
  const module = planned[first]!.module;
  let end = first;
  while (planned[end + 1]?.module === module) end += 1;
  for (const [index, { spec }] of planned.entries()) {
    if (index < first || !spec.polls) continue;
    let release = -1;
    for (let w = first + 1; w <= end; w += 1) if (allowed.writes && disturbs(planned[w]!.spec, spec)) release = w;
    if (release < 0) starts.now.push(index);
    else starts.after.set(release, [...(starts.after.get(release) ?? []), index]);
  }
  return starts;
}
