/**
 * Per-identity, per-category request counters. Search limits are the spec's; the core limit and
 * the other categories' values are not shown, so the reference uses the real platform's figures.
 */
import { LIMITS, RATE_CATEGORIES, type RateCategory } from '../spec/limits.js';
import { timestamp } from './timestamp.js';

export interface Quota {
  limit: number;
  windowMs: number;
}

export type QuotaTable = Record<RateCategory, { authenticated: Quota; anonymous: Quota }>;

const HOUR = 3_600_000;
const MINUTE = 60_000;

export const DEFAULT_QUOTAS: QuotaTable = {
  core: { authenticated: { limit: 5000, windowMs: HOUR }, anonymous: { limit: 60, windowMs: HOUR } },
  search: {
    authenticated: { limit: LIMITS.search.perMinuteAuthenticated, windowMs: MINUTE },
    anonymous: { limit: LIMITS.search.perMinuteAnonymous, windowMs: MINUTE },
  },
  graphql: { authenticated: { limit: 5000, windowMs: HOUR }, anonymous: { limit: 0, windowMs: HOUR } },
  integration_manifest: { authenticated: { limit: 5000, windowMs: HOUR }, anonymous: { limit: 5000, windowMs: HOUR } },
  code_scanning_upload: { authenticated: { limit: 1000, windowMs: HOUR }, anonymous: { limit: 0, windowMs: HOUR } },
};

export interface RateStatus {
  limit: number;
  remaining: number;
  reset: number;
  used: number;
}

interface Window {
  startedAt: number;
  used: number;
}

export class RateLimiter {
  /** Per caller key, its window of each category: found without joining strings (the proxy asks on every request). */
  private windows = new Map<string, Partial<Record<RateCategory, Window>>>();

  constructor(private readonly quotas: QuotaTable, private readonly now: () => number) {}

  private quota(category: RateCategory, authenticated: boolean): Quota {
    const row = this.quotas[category];
    return authenticated ? row.authenticated : row.anonymous;
  }

  private window(key: string, category: RateCategory, quota: Quota): Window {
    const t = this.now();
    let caller = this.windows.get(key);
    if (!caller) {
      caller = {};
      this.windows.set(key, caller);
    }
    let w = caller[category];
    if (!w || t >= w.startedAt + quota.windowMs) {
      w = { startedAt: t, used: 0 };
      caller[category] = w;
    }
    return w;
  }

  status(key: string, category: RateCategory, authenticated: boolean): RateStatus {
    const quota = this.quota(category, authenticated);
    return this.statusOf(quota, this.window(key, category, quota));
  }

  /** Counts one request and returns the status after it: one window lookup where consume then status take two. */
  take(key: string, category: RateCategory, authenticated: boolean): RateStatus {
    const quota = this.quota(category, authenticated);
    const w = this.window(key, category, quota);
    w.used += 1;
    return this.statusOf(quota, w);
  }

  private statusOf(quota: Quota, w: Window): RateStatus {
    return {
      limit: quota.limit,
      remaining: Math.max(quota.limit - w.used, 0),
      reset: Math.ceil((w.startedAt + quota.windowMs) / 1000),
      used: w.used,
    };
  }

  consume(key: string, category: RateCategory, authenticated: boolean): void {
    const quota = this.quota(category, authenticated);
    this.window(key, category, quota).used += 1;
  }

  /**
   * "Exhaustion answered with 403 and a message": undefined while requests remain, otherwise the
   * message (the limit, its window and when it resets) and the Retry-After seconds. `who` names the caller.
   */
  exhausted(key: string, category: RateCategory, authenticated: boolean, who: string): { message: string; retryAfter: number } | undefined {
    const s = this.status(key, category, authenticated);
    if (s.used < s.limit) return undefined;
    const per = describeWindow(this.quota(category, authenticated).windowMs);
    return {
      message: `API rate limit exceeded for ${who}: ${s.limit} ${category} requests per ${per}. The limit resets at ${timestamp(s.reset * 1000)} (X-RateLimit-Reset ${s.reset}).`,
      retryAfter: Math.max(s.reset - Math.floor(this.now() / 1000), 0),
    };
  }

  all(key: string, authenticated: boolean): Record<RateCategory, RateStatus> {
    const out = {} as Record<RateCategory, RateStatus>;
    for (const c of RATE_CATEGORIES) out[c] = this.status(key, c, authenticated);
    return out;
  }
}

/** Merges partial overrides (e.g. a test's smaller window) into the default table. */
export function quotaTable(overrides: Partial<Record<RateCategory, Partial<{ authenticated: Partial<Quota>; anonymous: Partial<Quota> }>>> = {}): QuotaTable {
  const out = structuredClone(DEFAULT_QUOTAS);
  for (const c of RATE_CATEGORIES) {
    const o = overrides[c];
    if (!o) continue;
    Object.assign(out[c].authenticated, o.authenticated ?? {});
    Object.assign(out[c].anonymous, o.anonymous ?? {});
  }
  return out;
}

/** The X-RateLimit-* headers of a status; the spec and the real platform use the same names. */
export function rateLimitHeaders(s: RateStatus, category: RateCategory): Record<string, string> {
  return {
    'x-ratelimit-limit': String(s.limit),
    'x-ratelimit-remaining': String(s.remaining),
    'x-ratelimit-used': String(s.used),
    'x-ratelimit-reset': String(s.reset),
    'x-ratelimit-resource': category,
  };
}

function describeWindow(ms: number): string {
  if (ms % HOUR === 0) return ms === HOUR ? 'hour' : `${ms / HOUR} hours`;
  if (ms % MINUTE === 0) return ms === MINUTE ? 'minute' : `${ms / MINUTE} minutes`;
  return `${ms / 1000} seconds`;
}
