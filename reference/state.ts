/** Everything a running reference remembers, shared by the pipeline and the area handlers. */
import type { AreaInit } from './area.js';
import { codeScanningArea, type CodeScanningState } from './areas/code-scanning.js';
import { eventsArea, type EventsState } from './areas/events.js';
import { importsArea, type ImportsState } from './areas/imports.js';
import { notificationsArea, type NotificationsState } from './areas/notifications.js';
import { rateLimitArea } from './areas/rate-limit.js';
import { searchArea, type SearchState } from './areas/search.js';
import { Lockout, type LockoutPolicy } from './lockout.js';
import { RateLimiter, type QuotaTable } from './rate-limiter.js';
import { World } from './world.js';

export const AREAS = [searchArea, notificationsArea, eventsArea, rateLimitArea, codeScanningArea, importsArea] as const;

export interface ReferenceState {
  world: World;
  startedAt: number;
  rateLimiter: RateLimiter;
  lockout: Lockout;
  /** "This interface is retired": every import endpoint answers 503. */
  importsRetired: boolean;
  /** Seconds sent in X-Poll-Interval on polled listings (notifications, events). */
  pollIntervalSeconds: number;
  search: SearchState;
  notifications: NotificationsState;
  events: EventsState;
  codeScanning: CodeScanningState;
  imports: ImportsState;
}

export function createState(opts: { now: () => number; quotas: QuotaTable; lockout: LockoutPolicy; importsRetired: boolean; pollIntervalSeconds: number }): ReferenceState {
  const world = new World();
  const init: AreaInit = { world, startedAt: opts.now(), now: opts.now };
  return {
    world,
    startedAt: init.startedAt,
    rateLimiter: new RateLimiter(opts.quotas, opts.now),
    lockout: new Lockout(opts.lockout, opts.now),
    importsRetired: opts.importsRetired,
    pollIntervalSeconds: opts.pollIntervalSeconds,
    search: searchArea.createState(init),
    notifications: notificationsArea.createState(init),
    events: eventsArea.createState(init),
    codeScanning: codeScanningArea.createState(init),
    imports: importsArea.createState(init),
  };
}
