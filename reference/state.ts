/** Everything a running reference remembers, shared by the pipeline and the area handlers. */
import type { Lockout } from './lockout.js';
import type { RateLimiter } from '../core/rate-limiter.js';
import type { World } from './world.js';

/**
 * Each area's own state, one slot per area. Empty here: reference/areas/index.ts adds the slots by
 * declaration merging, so this file (and http.ts, which hands the state to handlers) imports no area.
 */
export interface AreaStates {}

export interface ReferenceState extends AreaStates {
  world: World;
  startedAt: number;
  rateLimiter: RateLimiter;
  lockout: Lockout;
  /** "This interface is retired": every import endpoint answers 503. */
  importsRetired: boolean;
  /** Seconds sent in X-Poll-Interval on polled listings (notifications, events). */
  pollIntervalSeconds: number;
}
