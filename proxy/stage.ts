/**
 * The seam where synthesis plugs into the proxy: every request runs through a list of stages,
 * onion-style (Koa-like). A stage may answer by itself (GET /rate_limit, a 403 on exhaustion, an
 * injected fault), or call `next()` for the inner answer (a fixture, the upstream, or the
 * unmatched diagnostic) and transform it (rate-limit headers, ETag/304). Stages run in the order
 * given, outermost first, so e.g. [chaos, rateLimits, conditional] makes a 304 from `conditional`
 * visible to `rateLimits`, which then does not count it.
 */
import type { Endpoint } from '../spec/catalogue.js';
import type { RateCategory } from '../spec/limits.js';
import type { Answer } from './answer.js';
import type { RecordedRequest } from './interaction.js';

export type ProxyMode = 'record' | 'replay' | 'record-missing' | 'passthrough';

/** Where the inner answer came from; set once `next()` has resolved. */
export type Source = 'fixture' | 'upstream' | 'unmatched' | 'upstream-error';

export interface Exchange {
  mode: ProxyMode;
  /** `x-conformance-session` of the request, or `default`: per-session state lives under this key. */
  session: string;
  /** The request as matched and stored: path below the prefix, secrets masked. */
  request: RecordedRequest;
  /** The caller's stable placeholder (`token#1`), or null for an anonymous request. */
  identity: string | null;
  /** Catalogue entry of the request, when it names one. */
  endpoint?: Endpoint;
  /** Rate-limit category the request counts against (from the catalogue; `core` for unknown paths, null for uncounted ones). */
  category: RateCategory | null;
  /** Conditional request headers as sent (they never enter the match key). */
  conditional: { ifNoneMatch?: string; ifModifiedSince?: string };
  /** Set by the innermost handler: what `next()` answered from. */
  source?: Source;
  /** The fixture served, once `next()` answered from one. */
  fixture?: { file: string; recordedAt: string; durationMs: number };
}

export type Stage = (x: Exchange, next: () => Promise<Answer>) => Promise<Answer>;

/** Runs `stages` around `inner`, the first stage outermost. */
export function compose(stages: readonly Stage[], inner: (x: Exchange) => Promise<Answer>): (x: Exchange) => Promise<Answer> {
  return (x) => {
    const at = (i: number): Promise<Answer> => {
      const stage = stages[i];
      return stage ? stage(x, () => at(i + 1)) : inner(x);
    };
    return at(0);
  };
}
