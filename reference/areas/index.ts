/**
 * The one module that wires the areas in: the list the pipeline routes to and faults.ts reads,
 * and the state each area keeps. Areas import the shared helpers, never this file or the server.
 */
import type { AreaInit } from '../area.js';
import { Lockout, type LockoutPolicy } from '../lockout.js';
import { RateLimiter, type QuotaTable } from '../../core/rate-limiter.js';
import type { ReferenceState } from '../state.js';
import { World } from '../world.js';
import { codeScanningArea, type CodeScanningState } from './code-scanning.js';
import { eventsArea, type EventsState } from './events.js';
import { importsArea, type ImportsState } from './imports.js';
import { notificationsArea, type NotificationsState } from './notifications.js';
import { rateLimitArea } from './rate-limit.js';
import { searchArea, type SearchState } from './search.js';

// Each area's slot in ReferenceState, added here so that state.ts (and so http.ts) names no area.
declare module '../state.js' {
  interface AreaStates {
    search: SearchState;
    notifications: NotificationsState;
    events: EventsState;
    codeScanning: CodeScanningState;
    imports: ImportsState;
  }
}

export const AREAS = [searchArea, notificationsArea, eventsArea, rateLimitArea, codeScanningArea, importsArea] as const;

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
