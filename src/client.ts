/**
 * The only way a suite talks to a target. It owns the request budget, the per-request timeout,
 * pacing from the rate-limit headers and X-Poll-Interval, and the redacted transcript, so no
 * suite can forget them.
 */
import { randomUUID } from 'node:crypto';
import { request as undiciRequest } from 'undici';
import { SESSION_HEADER } from '../proxy/protocol.js';
import { matchEndpoint } from '../spec/catalogue.js';
import type { VendorNames } from '../spec/vendor.js';
import type { ExchangeRecord, RunResult } from './model.js';
import type { Profile, TokenName } from './profile.js';
import { urlSecrets } from './redact/credentials.js';
import { Redactor } from './redact/redactor.js';

export interface ClientOptions {
  profile: Profile;
  names: VendorNames;
  timeoutMs: number;
  maxRequests: number;
  /** Longest the client will wait for a rate-limit window to reset before giving up. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export interface RequestOptions {
  method?: string;
  /** Path below the API root (prefix added by the client), with any query string. */
  path: string;
  /** A profile token name, `null` for anonymous, or `{ raw }` for a literal Authorization header. Default: classic. */
  as?: TokenName | null | { raw: string };
  headers?: Record<string, string>;
  body?: unknown;
  /** A second request to the same URL that the check makes on purpose (conditional request): waits for X-Poll-Interval. */
  poll?: boolean;
  /** Send even when the rate-limit headers say the window is spent (only the opted-in exhaustion check does). */
  unpaced?: boolean;
  /**
   * A GET this run already had answered with a 2xx is not sent again: that reply is returned. For
   * controls and repeated reads of fixed data (search), so they cost no rate-limit window.
   */
  reuse?: boolean;
  /** Another API root than the profile's (the preflight tries where a wrong prefix should have pointed). */
  root?: string;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed body; undefined when empty or not JSON (see `jsonError`). */
  json: unknown;
  jsonError?: string;
  exchange: number;
}

/** Characters of a body that is not JSON kept in the transcript; cut after redaction, never before. */
const MAX_TEXT_BODY = 2000;

export class TargetUnreachable extends Error {}
export class BudgetExhausted extends Error {}

interface RateState {
  remaining: number;
  reset: number;
}

export class Client {
  readonly transcript: ExchangeRecord[] = [];
  readonly byCategory: Record<string, number> = {};
  private readonly redactor: Redactor;
  private readonly rates = new Map<string, RateState>();
  private readonly lastPoll = new Map<string, { at: number; interval: number }>();
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  /** Each run is its own session on a replaying proxy: sequences and synthesized counters start afresh. */
  private readonly session = `run-${randomUUID()}`;
  /** Exchanges recorded since the last call of `take()`. */
  private pending: number[] = [];
  /** Per exchange, how many secrets the redactor knew before redacting it. */
  private readonly redactedWith = new Map<number, number>();
  /** Successful GET replies by method, URL and request headers, for `reuse`. */
  private readonly answered = new Map<string, Reply>();
  /** The Accept header sent by default: the recommended media type, unless the preflight found the target refuses it. */
  accept: string;
  /** The Authorization scheme tokens are sent with: Bearer, unless the preflight found the target accepts only `token`. */
  scheme: 'Bearer' | 'token' = 'Bearer';

  constructor(private readonly opts: ClientOptions, secrets: readonly string[]) {
    // The base URL's userinfo is a credential too: learned, and stripped from every output.
    this.redactor = new Redactor(undefined, [...secrets, ...urlSecrets(opts.profile.base_url)]);
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = opts.now ?? Date.now;
    this.accept = opts.names.mediaType;
  }

  /** The API root requests go to: base URL and prefix. */
  get root(): string {
    return `${this.opts.profile.base_url.replace(/\/+$/, '')}${this.opts.profile.prefix ?? ''}`;
  }

  get count(): number {
    return this.transcript.length;
  }

  /** Lists a reply this run had earlier (a control obtained before, by this check or another) among the exchanges since the previous `take()`, so the check's transcript shows what it judged by. */
  cite(reply: Reply): Reply {
    if (!this.pending.includes(reply.exchange)) this.pending.push(reply.exchange);
    return reply;
  }

  /**
   * Runs requests that prepare or put back what a check judges (starting an import to read, putting
   * a deleted subscription back), leaving them out of the check's exchanges: they stay in the
   * transcript, but no check is credited with the endpoints they reach.
   */
  async unjudged<T>(setup: () => Promise<T>): Promise<T> {
    const before = this.pending.length;
    try {
      return await setup();
    } finally {
      this.pending = this.pending.slice(0, before);
    }
  }

  /** Ids of the exchanges made since the previous call. */
  take(): number[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  redact(text: string): string {
    return this.redactor.text(text);
  }

  /** The start of a target's text for a message: redacted before it is cut, so the cut cannot leave the start of a secret. */
  excerpt(text: string, length: number): string {
    return this.redactor.text(text).slice(0, length);
  }

  /**
   * A run's result through the redactor with every secret it learned by now (one met late may have
   * been echoed early): exchanges redacted before the last secret was learned are redacted again.
   */
  redactResult(result: RunResult): RunResult {
    const transcript = result.transcript.map((x) => (this.redactedWith.get(x.id) === this.redactor.learned ? x : this.redactor.strings(x)));
    return { ...this.redactor.strings({ ...result, transcript: [] }), transcript };
  }

  tokenValue(name: TokenName): string | undefined {
    return this.opts.profile.tokens?.[name]?.value;
  }

  async send(req: RequestOptions): Promise<Reply> {
    if (this.count >= this.opts.maxRequests) throw new BudgetExhausted(`request budget of ${this.opts.maxRequests} spent`);
    const method = (req.method ?? 'GET').toUpperCase();
    const url = `${req.root ?? this.root}${req.path}`;
    const headers: Record<string, string> = {
      accept: this.accept, 'user-agent': 'conformance-suite', [SESSION_HEADER]: this.session, ...lower(req.headers ?? {}),
    };
    const as = req.as === undefined ? 'classic' : req.as;
    const caller = this.caller(as);
    if (as && typeof as === 'object') {
      headers.authorization = as.raw;
    } else if (as) {
      const value = this.tokenValue(as);
      if (!value) throw new Error(`profile has no token "${as}"`);
      headers.authorization = `${this.scheme} ${value}`;
    }
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }

    const reuseKey = method === 'GET' && req.body === undefined ? `${url} ${JSON.stringify(Object.entries(headers).sort())}` : undefined;
    const earlier = req.reuse && reuseKey ? this.answered.get(reuseKey) : undefined;
    if (earlier) {
      this.pending.push(earlier.exchange);
      return earlier;
    }

    const pathOnly = req.path.split('?')[0] ?? req.path;
    const category = matchEndpoint(method, pathOnly)?.endpoint.category ?? (pathOnly === '/rate_limit' ? null : 'core');
    if (category && !req.unpaced) await this.pace(`${category}:${caller}`);
    const pollKey = `${method} ${url} ${headers.authorization ?? ''}`;
    if (req.poll) await this.waitForPoll(pollKey);

    this.redactedWith.set(this.transcript.length + 1, this.redactor.learned);
    // Headers first: the credentials they carry are learned before the URL and body are masked.
    const sentHeaders = this.redactor.headers(headers);
    const record: ExchangeRecord = {
      id: this.transcript.length + 1,
      request: { method, url: this.redactor.text(url), headers: sentHeaders, ...(req.body !== undefined ? { body: this.redactor.json(req.body) } : {}) },
      durationMs: 0,
    };
    this.transcript.push(record);
    this.pending.push(record.id);
    const started = this.now();
    let status: number;
    let responseHeaders: Record<string, string>;
    let text: string;
    try {
      // undici's request() does not follow redirects: a 301 is seen as a 301.
      const res = await undiciRequest(url, {
        method: method as 'GET', headers, body: payload, headersTimeout: this.opts.timeoutMs, bodyTimeout: this.opts.timeoutMs,
      });
      status = res.statusCode;
      responseHeaders = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) responseHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      text = await res.body.text();
    } catch (err) {
      record.durationMs = this.now() - started;
      record.error = this.redactor.text(describeNetworkError(err, this.opts.timeoutMs));
      throw new TargetUnreachable(`${method} ${this.redactor.text(url)}: ${record.error}`);
    }
    record.durationMs = this.now() - started;
    const resource = responseHeaders['x-ratelimit-resource'];
    if (category) this.byCategory[resource ?? category] = (this.byCategory[resource ?? category] ?? 0) + 1;
    this.observeRate(`${resource ?? category}:${caller}`, responseHeaders);
    const interval = Number(responseHeaders['x-poll-interval']);
    if (Number.isFinite(interval) && interval > 0) this.lastPoll.set(pollKey, { at: this.now(), interval: interval * 1000 });

    let json: unknown;
    let jsonError: string | undefined;
    if (text.length) {
      try {
        json = JSON.parse(text);
      } catch {
        const shown = this.redactor.text(text);
        jsonError = `body is not JSON (${jsonParseError(shown)}); starts with ${JSON.stringify(shown.slice(0, 60))}`;
      }
    }
    const receivedHeaders = this.redactor.headers(responseHeaders);
    const body = json !== undefined ? this.redactor.json(json) : this.redactor.body(text, responseHeaders['content-type']).slice(0, MAX_TEXT_BODY);
    record.response = { status, headers: receivedHeaders, ...(text.length ? { body } : {}) };
    const reply: Reply = { status, headers: responseHeaders, text, json, ...(jsonError ? { jsonError } : {}), exchange: record.id };
    if (reuseKey && status >= 200 && status < 300) this.answered.set(reuseKey, reply);
    return reply;
  }

  /**
   * Whose rate-limit window a request counts against: rate limits are per caller, so each user's
   * window is paced apart (the profile's login where it names one: tokens of one user share it).
   */
  private caller(as: TokenName | null | { raw: string }): string {
    if (as === null) return 'anonymous';
    const tokens = Object.entries(this.opts.profile.tokens ?? {});
    const [name, token] = (typeof as === 'object' ? tokens.find(([, t]) => as.raw.endsWith(` ${t.value}`)) : tokens.find(([n]) => n === as)) ?? [];
    if (!name) return 'authenticated';
    return token?.login ? `user:${token.login}` : `token:${name}`;
  }

  /** Waits when the last response said this caller's window of this category has no request left. */
  private async pace(key: string): Promise<void> {
    const state = this.rates.get(key);
    if (!state || state.remaining > 0) return;
    const wait = state.reset * 1000 - this.now() + 1000;
    if (wait <= 0) return;
    if (wait > (this.opts.maxWaitMs ?? 120_000)) {
      throw new BudgetExhausted(`rate limit ${key.split(':')[0]} spent until ${new Date(state.reset * 1000).toISOString()}`);
    }
    await this.sleep(wait);
    this.rates.delete(key);
  }

  private observeRate(key: string, headers: Record<string, string>): void {
    const remaining = Number(headers['x-ratelimit-remaining']);
    const reset = Number(headers['x-ratelimit-reset']);
    if (headers['x-ratelimit-remaining'] !== undefined && Number.isFinite(remaining) && Number.isFinite(reset)) {
      // Keep one request in reserve: other tokens of the same user may share this window.
      this.rates.set(key, { remaining: remaining - 1, reset });
    }
  }

  private async waitForPoll(key: string): Promise<void> {
    const last = this.lastPoll.get(key);
    if (!last) return;
    const wait = last.at + last.interval - this.now();
    if (wait > 0) await this.sleep(wait);
  }
}

/** The parser's complaint about text that is not JSON: it quotes a cut of the text, so it is given the redacted text. */
function jsonParseError(redacted: string): string {
  try {
    JSON.parse(redacted);
    return 'invalid JSON';
  } catch (err) {
    return (err as Error).message;
  }
}

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function describeNetworkError(err: unknown, timeoutMs: number): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return `no answer within ${timeoutMs} ms`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND') return 'host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed by the server';
  return e.message ?? String(err);
}
