/**
 * The built-in stages: the synthesis modules (chaos.ts, rate-limits.ts, conditional.ts) adapted
 * to the stage seam. Outermost first: an injected fault costs nothing and skips the fixture; the
 * rate limiter sees the conditional stage's 304 and does not count it.
 */
import { Chaos, type ChaosOptions } from './chaos.js';
import { answerConditional } from './conditional.js';
import { RateLimits, type RateLimitOptions } from './rate-limits.js';
import type { Exchange, ProxyMode, Stage } from './stage.js';

export interface SynthesisOptions {
  /** Rate-limit headers, GET /rate_limit and 403 on exhaustion from the proxy's counters; `false` serves the recorded headers. */
  rateLimits?: RateLimitOptions | false;
  /** ETag / Last-Modified on replayed GETs and 304 when the request's validators match (default on). */
  conditional?: boolean;
  /** Latency and injected faults, in every mode. */
  chaos?: ChaosOptions;
}

/** Rate limits and validators are synthesized in replay only: elsewhere the upstream's own are what the client should see. */
export function builtinStages(mode: ProxyMode, options: SynthesisOptions): Stage[] {
  const stages: Stage[] = [];
  if (options.chaos) stages.push(chaosStage(new Chaos(options.chaos)));
  if (mode !== 'replay') return stages;
  if (options.rateLimits !== false) stages.push(rateLimitStage(new RateLimits(options.rateLimits ?? {})));
  if (options.conditional !== false) stages.push(conditionalStage);
  return stages;
}

function chaosStage(chaos: Chaos): Stage {
  return async (x, next) => {
    const answer = chaos.fault(x.session, x.request) ?? await next();
    const delay = chaos.delayMs(x.fixture?.durationMs ?? 0);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    return answer;
  };
}

function rateLimitStage(limits: RateLimits): Stage {
  return async (x, next) => {
    const req = { session: x.session, identity: x.identity, category: x.category };
    // "Calling it does not count against the REST rate limit": the body comes from the counters, even without a fixture.
    if (x.endpoint?.id === 'rate-limit.get') {
      const recorded = await next();
      if (x.source === 'fixture') return limits.statusAnswer(req, recorded);
      delete x.source; // answered, not a miss
      return limits.statusAnswer(req);
    }
    const refusal = limits.refuse(req);
    if (refusal) return refusal;
    const answer = await next();
    // The proxy's own diagnostics (a miss) are not answers of the API: not counted, no rate-limit headers.
    return x.source === 'fixture' ? limits.settle(req, answer) : answer;
  };
}

const conditionalStage: Stage = async (x: Exchange, next) => {
  const answer = await next();
  if (x.source !== 'fixture' || !x.fixture) return answer;
  const headers = { 'if-none-match': x.conditional.ifNoneMatch, 'if-modified-since': x.conditional.ifModifiedSince };
  return answerConditional({ method: x.request.method, headers, endpoint: x.endpoint?.id }, { answer, recordedAt: x.fixture.recordedAt });
};
