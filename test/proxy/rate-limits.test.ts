/** Synthesized rate limits: the spec's numbers and counting rules, per session, identity and category. */
import { describe, expect, it } from 'vitest';
import { grade } from '../../core/schemas.js';
import type { Answer } from '../../proxy/answer.js';
import { RateLimits, type RateRequest } from '../../proxy/rate-limits.js';

const T0 = Date.parse('2026-03-10T12:00:00Z');
const clock = () => {
  let t = T0;
  return { now: () => t, advance: (ms: number) => { t += ms; } };
};
const ok = (headers: Record<string, string> = {}): Answer => ({ status: 200, headers, body: Buffer.from('{}') });
const search: RateRequest = { session: 's', identity: 'token#1', category: 'search' };
const events: RateRequest = { ...search, category: 'core' };
const rateLimit: RateRequest = { ...search, category: null };
const json = (a: Answer) => JSON.parse(a.body!.toString()) as Record<string, any>;

/** Serves `req` as the replay pipeline does: refusal first, otherwise the answer counted. */
function serve(limits: RateLimits, req: RateRequest, answer: Answer = ok()): Answer {
  return limits.refuse(req) ?? limits.settle(req, answer);
}

describe('synthesized rate limits', () => {
  it('allow 30 authenticated searches a minute, then refuse with 403, a message naming the limit and reset, remaining 0', () => {
    const c = clock();
    const limits = new RateLimits({ now: c.now });
    for (let i = 1; i <= 30; i++) {
      const a = serve(limits, search);
      expect(a.status).toBe(200);
      expect(a.headers['x-ratelimit-limit']).toBe('30');
      expect(a.headers['x-ratelimit-used']).toBe(String(i));
      expect(a.headers['x-ratelimit-remaining']).toBe(String(30 - i));
      expect(a.headers['x-ratelimit-resource']).toBe('search');
    }
    const refused = serve(limits, search);
    const reset = (T0 + 60_000) / 1000;
    expect(refused.status).toBe(403);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['x-ratelimit-reset']).toBe(String(reset));
    expect(refused.headers['retry-after']).toBe('60');
    const { message } = json(refused);
    expect(message).toContain('30 search requests per minute');
    expect(message).toContain('2026-03-10T12:01:00Z');
    // The window resets a minute after it opened.
    c.advance(60_000);
    expect(serve(limits, search).status).toBe(200);
  });

  it('allow 10 anonymous searches a minute', () => {
    const limits = new RateLimits({ now: clock().now });
    const anon: RateRequest = { session: 's', identity: null, category: 'search' };
    for (let i = 0; i < 10; i++) expect(serve(limits, anon).headers['x-ratelimit-limit']).toBe('10');
    expect(serve(limits, anon).status).toBe(403);
    expect(json(serve(limits, anon)).message).toContain('anonymous');
  });

  it('count searches against search only, other REST against core, and neither 304s nor GET /rate_limit', () => {
    const limits = new RateLimits({ now: clock().now });
    serve(limits, search);
    serve(limits, events);
    serve(limits, events, { status: 304, headers: {} });
    serve(limits, rateLimit);
    const s = limits.snapshot(search);
    expect(s.resources.search.used).toBe(1);
    expect(s.resources.core.used).toBe(1);
    // The 304 still carries the headers, showing the unchanged count.
    const notModified = limits.settle(events, { status: 304, headers: {} });
    expect(notModified.headers['x-ratelimit-used']).toBe('1');
  });

  it('keep separate counters per session and per identity', () => {
    const limits = new RateLimits({ now: clock().now });
    for (let i = 0; i < 30; i++) serve(limits, search);
    expect(serve(limits, search).status).toBe(403);
    expect(serve(limits, { ...search, session: 'other' }).status).toBe(200);
    expect(serve(limits, { ...search, identity: 'token#2' }).status).toBe(200);
  });

  it('answer GET /rate_limit from the counters: every category, rate equal to core, reset in epoch seconds, valid against the schema', () => {
    const limits = new RateLimits({ now: clock().now });
    serve(limits, events);
    const a = limits.statusAnswer(rateLimit);
    expect(a.status).toBe(200);
    const body = json(a);
    expect(grade('rate-limit', body).failures).toEqual([]);
    expect(Object.keys(body.resources).sort()).toEqual(['code_scanning_upload', 'core', 'graphql', 'integration_manifest', 'search']);
    expect(body.rate).toEqual(body.resources.core);
    expect(body.resources.core.used).toBe(1);
    expect(body.resources.search).toMatchObject({ limit: 30, used: 0, remaining: 30, reset: (T0 + 60_000) / 1000 });
    expect(a.headers['x-ratelimit-resource']).toBe('core');
    expect(json(limits.statusAnswer(rateLimit)).resources.core.used).toBe(1);
  });

  it('answer GET /rate_limit with a recorded answer\'s status and headers, the body from the counters', () => {
    const limits = new RateLimits({ now: clock().now });
    serve(limits, events);
    const recorded = ok({ 'x-service-api-version-selected': '2026-03-10', etag: '"recorded"', 'x-ratelimit-used': '40' });
    const a = limits.statusAnswer(rateLimit, recorded);
    expect(a.headers['x-service-api-version-selected']).toBe('2026-03-10');
    expect(a.headers.etag).toBeUndefined();
    expect(a.headers['x-ratelimit-used']).toBe('1');
    expect(json(a).resources.core.used).toBe(1);
    const refused = limits.statusAnswer(rateLimit, { status: 400, headers: {}, body: Buffer.from('{"message":"API version 1999-01-01 is not supported."}') });
    expect(refused.status).toBe(400);
    expect(json(refused).message).toContain('1999-01-01');
    expect(json(limits.statusAnswer(rateLimit)).resources.core.used).toBe(1);
  });

  it('take a configurable core limit', () => {
    const limits = new RateLimits({ now: clock().now, coreLimit: 2 });
    expect(serve(limits, events).headers['x-ratelimit-limit']).toBe('2');
    serve(limits, events);
    const refused = serve(limits, events);
    expect(refused.status).toBe(403);
    expect(json(refused).message).toContain('2 core requests per hour');
  });

  it('take a raised search limit, or none at all for load tests, for anonymous and authenticated callers alike', () => {
    const raised = new RateLimits({ now: clock().now, searchLimit: 100 });
    const anonymous: RateRequest = { ...search, identity: null };
    for (const req of [search, anonymous]) {
      for (let i = 0; i < 100; i++) expect(serve(raised, req).status).toBe(200);
      expect(serve(raised, req).status).toBe(403);
    }
    const lifted = new RateLimits({ now: clock().now, searchLimit: 'off' });
    for (let i = 0; i < 1000; i++) expect(serve(lifted, search).status).toBe(200);
    expect(serve(lifted, search).headers['x-ratelimit-used']).toBe('1001');
  });

  it('replace the recorded rate-limit headers of a frozen (shared) answer on every request, leaving it untouched', () => {
    const limits = new RateLimits({ now: clock().now });
    const shared = ok({ 'x-ratelimit-used': '7', 'x-poll-interval': '60' });
    Object.freeze(shared.headers);
    Object.freeze(shared);
    expect(limits.settle(events, shared).headers).toMatchObject({ 'x-ratelimit-used': '1', 'x-poll-interval': '60' });
    expect(limits.settle(events, shared).headers).toMatchObject({ 'x-ratelimit-used': '2', 'x-poll-interval': '60' });
    expect(shared.headers).toEqual({ 'x-ratelimit-used': '7', 'x-poll-interval': '60' });
  });

  it('replace recorded rate-limit headers and keep the others', () => {
    const limits = new RateLimits({ now: clock().now });
    const a = limits.settle(events, ok({ 'x-ratelimit-remaining': '12', 'x-ratelimit-used': '7', 'x-ratelimit-reset': '1', 'x-poll-interval': '60' }));
    expect(a.headers['x-ratelimit-used']).toBe('1');
    expect(Number(a.headers['x-ratelimit-remaining'])).toBe(Number(a.headers['x-ratelimit-limit']) - 1);
    expect(a.headers['x-ratelimit-reset']).toBe(String((T0 + 3_600_000) / 1000));
    expect(a.headers['x-poll-interval']).toBe('60');
  });
});
