/**
 * Synthesized rate limits for replay. Recorded X-RateLimit-* values would contradict each other
 * (and the clock) on replay, so the proxy keeps its own counters per session, identity and
 * category with the reference's quotas (the spec's search limits; core configurable) and derives
 * every rate-limit header and GET /rate_limit from them.
 */
import type { RateCategory } from '../spec/limits.js';
import { quotaTable, rateLimitHeaders, RateLimiter, type RateStatus } from '../core/rate-limiter.js';
import { answerWith, jsonAnswer, type Answer } from './answer.js';

export interface RateRequest {
  /** Session id (`x-conformance-session`): counters of one session never touch another's. */
  session: string;
  /** The caller's stable placeholder from the match layer (e.g. `token#1`); null when anonymous. */
  identity: string | null;
  /** From the catalogue (unknown paths: core); null for requests that are not counted (GET /rate_limit). */
  category: RateCategory | null;
}

export interface RateLimitOptions {
  /** Authenticated core requests per hour; the spec does not show the value, so the default is the reference's. */
  coreLimit?: number;
  /**
   * Search requests per minute, authenticated or not, in place of the spec's; `off` never refuses
   * one (a load test of searches would otherwise turn into 403s within a second).
   */
  searchLimit?: number | 'off';
  /** Epoch milliseconds (tests move time). */
  now?: () => number;
}

export interface RateLimitStatus {
  resources: Record<RateCategory, RateStatus>;
  /** Deprecated, "equals `core`". */
  rate: RateStatus;
}

const RECORDED_LIMIT = 'x-ratelimit-';

/**
 * The answer's headers with the synthesized limits in place of any recorded ones, copied in one
 * pass: reading the names costs less than a lookup of a filtered set kept per answer (10,000 kept
 * answers made that table a cache miss on every request).
 */
function withLimits(headers: Readonly<Record<string, string>>, limits: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) if (!name.startsWith(RECORDED_LIMIT)) out[name] = headers[name]!;
  for (const name in limits) out[name] = limits[name]!;
  return out;
}

/** A limit no run reaches: the counters and headers stay, the refusals go. */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

export class RateLimits {
  private readonly limiter: RateLimiter;
  private readonly now: () => number;

  constructor(options: RateLimitOptions = {}) {
    this.now = options.now ?? Date.now;
    const { coreLimit, searchLimit } = options;
    const search = searchLimit === 'off' ? UNLIMITED : searchLimit;
    this.limiter = new RateLimiter(quotaTable({
      ...(coreLimit === undefined ? {} : { core: { authenticated: { limit: coreLimit } } }),
      ...(search === undefined ? {} : { search: { authenticated: { limit: search }, anonymous: { limit: search } } }),
    }), this.now);
  }

  /** The refusal for a request whose window is spent, or undefined while requests remain. */
  refuse(req: RateRequest): Answer | undefined {
    const { category } = req;
    if (!category) return undefined;
    const spent = this.limiter.exhausted(this.key(req), category, !!req.identity, req.identity ?? 'anonymous requests');
    if (!spent) return undefined;
    return jsonAnswer(403, { message: spent.message }, { ...rateLimitHeaders(this.status(req, category), category), 'retry-after': String(spent.retryAfter) });
  }

  /**
   * Counts a served answer and returns it with the synthesized headers in place of any recorded
   * ones. "304 answers to conditional requests do not consume the rate limit; /rate_limit does not consume it."
   */
  settle(req: RateRequest, answer: Answer): Answer {
    const { category } = req;
    const key = this.key(req);
    const shown = category ?? 'core';
    const status = category && answer.status !== 304 ? this.limiter.take(key, category, !!req.identity) : this.limiter.status(key, shown, !!req.identity);
    return answerWith(answer, withLimits(answer.headers, rateLimitHeaders(status, shown)));
  }

  /** The GET /rate_limit body from this caller's counters, without counting. */
  snapshot(req: Omit<RateRequest, 'category'>): RateLimitStatus {
    const resources = this.limiter.all(this.key(req), !!req.identity);
    return { resources, rate: resources.core };
  }

  /**
   * The answer to GET /rate_limit, costing nothing: the body from the counters. A recorded answer
   * (`recorded`, when the cassette has one) lends its status and other headers, so a refusal
   * (an unsupported API version, invalid credentials) replays as it was.
   */
  statusAnswer(req: RateRequest, recorded?: Answer): Answer {
    if (recorded && recorded.status !== 200) return this.settle(req, recorded);
    const body = this.snapshot(req);
    // Validators of the recorded body do not describe this one.
    const kept = Object.entries(recorded?.headers ?? {}).filter(([name]) => name !== 'etag' && name !== 'last-modified');
    const headers = { ...Object.fromEntries(kept), 'content-type': 'application/json; charset=utf-8' };
    return this.settle(req, { status: 200, headers, body: Buffer.from(JSON.stringify(body)) });
  }

  private status(req: Omit<RateRequest, 'category'>, category: RateCategory): RateStatus {
    return this.limiter.status(this.key(req), category, !!req.identity);
  }

  private key(req: Omit<RateRequest, 'category'>): string {
    return `${req.session}\u0000${req.identity ?? 'anonymous'}`;
  }
}
