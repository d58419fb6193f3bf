/**
 * The only way a suite talks to a target. It owns the request budget, the per-request timeout,
 * pacing from the rate-limit headers, Retry-After and X-Poll-Interval (each wait capped, all waits
 * bounded together), the run's one clock (every wait and request ends on Ctrl-C), and the redacted
 * transcript, so no suite can forget them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type * as Undici from 'undici';
import { SESSION_HEADER } from './protocol.js';
import { matchEndpoint } from '../spec/catalogue.js';
import type { VendorNames } from '../spec/vendor.js';
import { bodyLimit, BoundedBuffer, DEFAULT_MAX_BODY_BYTES, MAX_JSON_DEPTH, nestsDeeper } from './bounds.js';
import type { ExchangeRecord, RunResult } from './model.js';
import type { Profile, TokenName } from './profile.js';
import { urlSecrets } from './redact/credentials.js';
import { Redactor } from './redact/redactor.js';
import { DEFAULT_MAX_TOTAL_WAIT_S, DEFAULT_MAX_WAIT_S, TOTAL_TIMEOUT_MS } from './client-defaults.js';

let undiciModule: Promise<typeof Undici> | undefined;
/** undici, loaded with the first request: the commands that only plan or list checks (--list, openapi) never send one. */
const undici = () => (undiciModule ??= import('undici'));

export interface ClientOptions {
  profile: Profile;
  names: VendorNames;
  /** Longest silence of the target: before the answer, or between its bytes. */
  timeoutMs: number;
  /** Longest whole exchange, body included (a target trickling bytes is never silent). */
  totalTimeoutMs?: number;
  /** Largest answer body read; a larger one is no answer. */
  maxBodyBytes?: number;
  maxRequests: number;
  /** Longest single wait the target may ask for (X-Poll-Interval, Retry-After, a rate-limit reset). */
  maxWaitMs?: number;
  /** Bound on all the waits the target asks for in a run together. */
  maxTotalWaitMs?: number;
  /** The run's interruption (Ctrl-C): ends waits and requests in flight, except put-backs. */
  signal?: AbortSignal;
  /** Told of each wait the target asked for as the run starts waiting it out, and told `undefined` when it is over. */
  onWait?: (wait: Wait | undefined) => void;
  /** The run's clock: tests give a virtual one, so waits are counted, not waited. */
  clock?: Clock;
}

export interface Clock {
  now(): number;
  /** Ends early, rejecting, when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const REAL_CLOCK: Clock = { now: Date.now, sleep: (ms, signal) => delay(ms, undefined, signal ? { signal } : {}) };

/** A wait the run is taking: how long, until when (epoch ms), and what the target sent to ask for it. */
export interface Wait {
  ms: number;
  until: number;
  asked: string;
}

/**
 * One check's turn on the client: the exchanges it made so far, and how it parks while it waits for
 * the target, so that other checks run meanwhile (see src/turns.ts).
 */
export interface Turn {
  exchanges: number[];
  park?: (wait: Wait) => Promise<void>;
  /**
   * The check counts what requests spend (core.used around a request): a wait inside a request does
   * not park it, since another check's requests would fall between its readings; only `untilPollable` does.
   */
  measuring?: boolean;
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
  /** Send even when the rate-limit headers say the window is spent, and take a throttled answer as it is (only the opted-in exhaustion check does). */
  unpaced?: boolean;
  /** An undo step of the journal: sent, and its waits waited, even after the run was interrupted. */
  putBack?: boolean;
  /**
   * A GET this run already had answered with a 2xx (or, conditional, with a 304) is not sent again:
   * that reply is returned. For controls, repeated reads of fixed data (search), so they cost no
   * rate-limit window; reads for what no request of the run changes (which repository an alert is
   * of), so they cost no request; and a conditional request another check
   * just polled, so it costs no poll interval.
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
/** The run was interrupted (Ctrl-C) while this request or wait was under way. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted (Ctrl-C)');
  }
}
/** The target asked for a wait longer than allowed, or the run's waiting is spent: the request is not sent. */
export class WaitRefused extends Error {}

/** Where a wait is taken: before a check's request, as one the check takes on its own (`untilPollable`), or in place (a put-back's). */
type WaitIn = 'request' | 'own' | 'in-place';

interface RateState {
  remaining: number;
  reset: number;
}

/**
 * Per client, the check whose turn it is, in whose context a request is made; outside any, the
 * client's `outside`. One store for the process, not one per client: Node keeps every store it has
 * seen in the creation path of every later promise, so a process that ran a few hundred runs (a test
 * file of fault runs) spent nearly a fifth of its time there (measured). Keyed by a symbol of the client's,
 * not the client: a timer started in a turn keeps the store, and must not keep the run.
 */
const TURNS = new AsyncLocalStorage<ReadonlyMap<symbol, Turn>>();

export class Client {
  readonly transcript: ExchangeRecord[] = [];
  readonly byCategory: Record<string, number> = {};
  private readonly redactor: Redactor;
  private readonly rates = new Map<string, RateState>();
  private readonly lastPoll = new Map<string, { at: number; interval: number }>();
  private readonly clock: Clock;
  /** Milliseconds waited so far at the target's request: overlapping waits count once. */
  private waited = 0;
  /** The end of the latest wait counted in `waited`. */
  private waitedUntil = 0;
  /** Each run is its own session on a replaying proxy: sequences and synthesized counters start afresh. */
  private readonly session = `run-${randomUUID()}`;
  /** This client's key in TURNS. */
  private readonly turnKey = Symbol('turn');
  /** Exchanges made outside a check's turn (preflight, put-backs) since the last call of `take()`. */
  private readonly outside: Turn = { exchanges: [] };
  /** Per exchange, how many secrets the redactor knew before redacting it. */
  private readonly redactedWith = new Map<number, number>();
  /** Successful (and 304) GET replies by method, URL and request headers, for `reuse`. */
  private readonly answered = new Map<string, Reply>();
  /** The Accept header sent by default: the recommended media type, unless the preflight found the target refuses it. */
  accept: string;
  /** The Authorization scheme tokens are sent with: Bearer, unless the preflight found the target accepts only `token`. */
  scheme: 'Bearer' | 'token' = 'Bearer';

  constructor(private readonly opts: ClientOptions, secrets: readonly string[]) {
    // The base URL's userinfo is a credential too: learned, and stripped from every output.
    this.redactor = new Redactor(undefined, [...secrets, ...urlSecrets(opts.profile.base_url)]);
    this.clock = opts.clock ?? REAL_CLOCK;
    this.accept = opts.names.mediaType;
  }

  /** The API root requests go to: base URL and prefix. */
  get root(): string {
    return `${this.opts.profile.base_url.replace(/\/+$/, '')}${this.opts.profile.prefix ?? ''}`;
  }

  get count(): number {
    return this.transcript.length;
  }

  private get turn(): Turn {
    return TURNS.getStore()?.get(this.turnKey) ?? this.outside;
  }

  /**
   * Runs `fn` as `turn`: the exchanges it makes are the turn's, and its waits park it where the turn can.
   * A timer started during the turn keeps the turn for as long as it lives (undici's clock lives as
   * long as the process), so once `fn` is done the turn lets go of `park`, whose closure holds the run.
   */
  async within<T>(turn: Turn, fn: () => Promise<T>): Promise<T> {
    try {
      return await TURNS.run(new Map(TURNS.getStore()).set(this.turnKey, turn), fn);
    } finally {
      delete turn.park;
    }
  }

  /** Lists a reply this run had earlier (a control obtained before, by this check or another) among the exchanges since the previous `take()`, so the check's transcript shows what it judged by. */
  cite(reply: Reply): Reply {
    const { exchanges } = this.turn;
    if (!exchanges.includes(reply.exchange)) exchanges.push(reply.exchange);
    return reply;
  }

  /**
   * Runs requests that prepare or put back what a check judges (starting an import to read, putting
   * a deleted subscription back), leaving them out of the check's exchanges: they stay in the
   * transcript, but no check is credited with the endpoints they reach.
   */
  async unjudged<T>(setup: () => Promise<T>): Promise<T> {
    const { exchanges } = this.turn;
    const before = exchanges.length;
    try {
      return await setup();
    } finally {
      exchanges.splice(before);
    }
  }

  /** Ids of the exchanges made (in this turn) since the previous call. */
  take(): number[] {
    return this.turn.exchanges.splice(0);
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
   * been echoed early): exchanges redacted before the last secret was learned are redacted again
   * where they may hold it.
   */
  redactResult(result: RunResult): RunResult {
    const current = (x: ExchangeRecord) => {
      const at = this.redactedWith.get(x.id);
      return at === this.redactor.learned || (at !== undefined && !this.redactor.heldSince(at, x));
    };
    const transcript = result.transcript.map((x) => (current(x) ? x : this.redactor.strings(x)));
    return { ...this.redactor.strings({ ...result, transcript: [] }), transcript };
  }

  tokenValue(name: TokenName): string | undefined {
    return this.opts.profile.tokens?.[name]?.value;
  }

  /** Waits `ms`, ending early with Interrupted when the run is interrupted: the run's one clock, for suites too. */
  async sleep(ms: number, signal: AbortSignal | undefined = this.opts.signal): Promise<void> {
    try {
      await this.clock.sleep(ms, signal);
    } catch (err) {
      if (signal?.aborted) throw new Interrupted();
      throw err;
    }
  }

  now(): number {
    return this.clock.now();
  }

  /** Waits out a wait the target asked for, telling `onWait` as it starts and ends. */
  async waitOut(wait: Wait, signal: AbortSignal | undefined = this.opts.signal): Promise<void> {
    this.opts.onWait?.(wait);
    try {
      await this.sleep(wait.ms, signal);
    } finally {
      this.opts.onWait?.(undefined);
    }
  }

  /**
   * Waits out X-Poll-Interval for `req` as a `poll` request would, without sending it: a check that
   * reads something around its conditional request (core.used) reads it after the wait. Parks the check.
   */
  async untilPollable(req: RequestOptions): Promise<void> {
    const root = req.root ?? this.root;
    await this.waitForPoll(this.pollKey(req.method, `${root}${req.path}`, this.authorization(req.as === undefined ? 'classic' : req.as)), this.opts.signal, 'own');
  }

  /**
   * Sends a request; a throttled answer (429, or 403 with Retry-After or no request left in the window)
   * is waited out within the caps and the request sent once more.
   */
  async send(req: RequestOptions): Promise<Reply> {
    const reply = await this.sendOnce(req);
    const asked = req.unpaced ? undefined : throttled(reply, this.clock.now());
    if (!asked) return reply;
    await this.waitAsked(asked.ms, asked.what, req.putBack ? undefined : this.opts.signal, req.putBack ? 'in-place' : 'request');
    return this.sendOnce(req);
  }

  private async sendOnce(req: RequestOptions): Promise<Reply> {
    const signal = req.putBack ? undefined : this.opts.signal;
    if (signal?.aborted) throw new Interrupted();
    if (this.count >= this.opts.maxRequests) throw new BudgetExhausted(`request budget of ${this.opts.maxRequests} spent`);
    const method = (req.method ?? 'GET').toUpperCase();
    const root = req.root ?? this.root;
    const url = `${root}${req.path}`;
    // A path not starting with "/" ("@host", ":8081/") would move the authority, and the token with it.
    if (!req.path.startsWith('/')) throw new Error(`request path ${JSON.stringify(req.path)} leaves the API root ${root}`);
    const headers: Record<string, string> = {
      accept: this.accept, 'user-agent': 'conformance-suite', [SESSION_HEADER]: this.session, ...lower(req.headers ?? {}),
    };
    const as = req.as === undefined ? 'classic' : req.as;
    const caller = this.caller(as);
    const authorization = this.authorization(as);
    if (authorization) headers.authorization = authorization;
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }

    const reuseKey = method === 'GET' && req.body === undefined ? `${url} ${JSON.stringify(Object.entries(headers).sort())}` : undefined;
    const earlier = () => {
      const reply = req.reuse && reuseKey ? this.answered.get(reuseKey) : undefined;
      if (reply) this.turn.exchanges.push(reply.exchange);
      return reply;
    };
    const before = earlier();
    if (before) return before;

    const pathOnly = req.path.split('?')[0] ?? req.path;
    const category = matchEndpoint(method, pathOnly)?.endpoint.category ?? (pathOnly === '/rate_limit' ? null : 'core');
    const where: WaitIn = req.putBack ? 'in-place' : 'request';
    if (category && !req.unpaced) await this.pace(`${category}:${caller}`, signal, where);
    const pollKey = this.pollKey(method, url, headers.authorization);
    // While this check was parked another may have polled the same URL: its answer is taken, or the new interval waited out.
    while (req.poll && await this.waitForPoll(pollKey, signal, where)) {
      const meanwhile = earlier();
      if (meanwhile) return meanwhile;
    }

    this.redactedWith.set(this.transcript.length + 1, this.redactor.learned);
    // Headers first: the credentials they carry are learned before the URL and body are masked.
    const sentHeaders = this.redactor.headers(headers);
    const record: ExchangeRecord = {
      id: this.transcript.length + 1,
      request: { method, url: this.redactor.text(url), headers: sentHeaders, ...(req.body !== undefined ? { body: this.redactor.json(req.body) } : {}) },
      durationMs: 0,
    };
    this.transcript.push(record);
    this.turn.exchanges.push(record.id);
    const { request } = await undici();
    const started = this.clock.now();
    let status: number;
    let responseHeaders: Record<string, string>;
    let text: string;
    const totalMs = this.opts.totalTimeoutMs ?? TOTAL_TIMEOUT_MS;
    const maxBody = this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const whole = deadline(totalMs, signal);
    try {
      // undici's request() does not follow redirects: a 301 is seen as a 301.
      const res = await request(url, {
        method: method as 'GET', headers, body: payload, headersTimeout: this.opts.timeoutMs, bodyTimeout: this.opts.timeoutMs, signal: whole.signal,
      });
      status = res.statusCode;
      responseHeaders = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) responseHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      const body = new BoundedBuffer(maxBody);
      // Leaving the loop early destroys the body: the connection is closed, not read on. The error has no code, so its message is the record's.
      for await (const chunk of res.body) if (!body.add(chunk as Buffer)) throw new Error(`answer body larger than ${bodyLimit(maxBody)}`);
      text = utf8.decode(body.bytes());
    } catch (err) {
      record.durationMs = this.clock.now() - started;
      if (signal?.aborted) {
        const interrupted = new Interrupted();
        record.error = interrupted.message;
        throw interrupted;
      }
      record.error = whole.overran() ? `no complete answer within ${totalMs} ms` : this.redactor.text(describeNetworkError(err, this.opts.timeoutMs));
      throw new TargetUnreachable(`${method} ${this.redactor.text(url)}: ${record.error}`);
    } finally {
      whole.end();
    }
    record.durationMs = this.clock.now() - started;
    const resource = responseHeaders['x-ratelimit-resource'];
    if (category) this.byCategory[resource ?? category] = (this.byCategory[resource ?? category] ?? 0) + 1;
    this.observeRate(`${resource ?? category}:${caller}`, responseHeaders);
    const interval = Number(responseHeaders['x-poll-interval']);
    if (Number.isFinite(interval) && interval > 0) this.lastPoll.set(pollKey, { at: this.clock.now(), interval: interval * 1000 });

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
    if (nestsDeeper(json)) {
      // Dropped, so nothing after the parse (redaction, schema validation, reports) walks it.
      json = undefined;
      jsonError = `body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels, the client's limit; starts with ${JSON.stringify(this.excerpt(text, 60))}`;
    }
    const receivedHeaders = this.redactor.headers(responseHeaders);
    const body = json !== undefined ? this.redactor.json(json) : this.redactor.body(text, responseHeaders['content-type']).slice(0, MAX_TEXT_BODY);
    record.response = { status, headers: receivedHeaders, ...(text.length ? { body } : {}) };
    const reply: Reply = { status, headers: responseHeaders, text, json, ...(jsonError ? { jsonError } : {}), exchange: record.id };
    // A 304 answers the same conditional request (the validator is part of the key) as long as nothing changes.
    if (reuseKey && ((status >= 200 && status < 300) || status === 304)) this.answered.set(reuseKey, reply);
    return reply;
  }

  /** The Authorization header a request as `as` carries. */
  private authorization(as: TokenName | null | { raw: string }): string | undefined {
    if (as === null) return undefined;
    if (typeof as === 'object') return as.raw;
    const value = this.tokenValue(as);
    if (!value) throw new Error(`profile has no token "${as}"`);
    return `${this.scheme} ${value}`;
  }

  /** What X-Poll-Interval is kept by: the same URL polled with the same credentials. */
  private pollKey(method: string | undefined, url: string, authorization: string | undefined): string {
    return `${(method ?? 'GET').toUpperCase()} ${url} ${authorization ?? ''}`;
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

  /** Waits when the last response said this caller's window of this category has no request left; a window spent for longer than one wait may last stops the run. */
  private async pace(key: string, signal: AbortSignal | undefined, where: WaitIn): Promise<void> {
    // A check parked here may find the window spent again by the checks that went on first: it is judged afresh.
    for (let state = this.rates.get(key); state && state.remaining <= 0; state = this.rates.get(key)) {
      const wait = state.reset * 1000 - this.clock.now() + 1000;
      if (wait <= 0) return;
      const until = new Date(state.reset * 1000).toISOString();
      if (wait > this.maxWait) throw new BudgetExhausted(`rate limit ${key.split(':')[0]} spent until ${until}, ${seconds(wait)} s away, longer than the ${seconds(this.maxWait)} s a wait may last (--max-wait)`);
      await this.waitAsked(wait, `X-RateLimit-Remaining: 0 until ${until}`, signal, where);
      if (this.rates.get(key) === state) this.rates.delete(key);
    }
  }

  private get maxWait(): number {
    return this.opts.maxWaitMs ?? DEFAULT_MAX_WAIT_S * 1000;
  }

  /**
   * A wait the target asked for (`asked` quotes how), within the longest single wait and the run's
   * total. In a check's turn it parks the check, so others run meanwhile, except a put-back's and
   * one inside a measuring check's request: those are waited out in place.
   */
  private async waitAsked(ms: number, asked: string, signal: AbortSignal | undefined, where: WaitIn): Promise<void> {
    const total = this.opts.maxTotalWaitMs ?? DEFAULT_MAX_TOTAL_WAIT_S * 1000;
    const wanted = `the target asked to wait ${seconds(ms)} s (${asked})`;
    if (ms > this.maxWait) throw new WaitRefused(`${wanted}, longer than the ${seconds(this.maxWait)} s a wait may last (--max-wait)`);
    const now = this.clock.now();
    const until = now + ms;
    // Only the part of this wait no earlier wait covers adds to the run's waiting: waits taken together count once.
    const added = Math.max(0, until - Math.max(now, this.waitedUntil));
    if (this.waited + added > total) throw new WaitRefused(`${wanted}, and the run has waited ${seconds(this.waited)} s of the ${seconds(total)} s allowed in all (--max-total-wait)`);
    this.waited += added;
    this.waitedUntil = Math.max(this.waitedUntil, until);
    const { park, measuring } = this.turn;
    if (park && (where === 'own' || (where === 'request' && !measuring))) return park({ ms, until, asked });
    await this.waitOut({ ms, until, asked }, signal);
  }

  private observeRate(key: string, headers: Record<string, string>): void {
    const remaining = Number(headers['x-ratelimit-remaining']);
    const reset = Number(headers['x-ratelimit-reset']);
    if (headers['x-ratelimit-remaining'] !== undefined && Number.isFinite(remaining) && Number.isFinite(reset)) {
      // Keep one request in reserve: other tokens of the same user may share this window.
      this.rates.set(key, { remaining: remaining - 1, reset });
    }
  }

  /** Answers whether it waited. */
  private async waitForPoll(key: string, signal: AbortSignal | undefined, where: WaitIn): Promise<boolean> {
    const last = this.lastPoll.get(key);
    const wait = last ? last.at + last.interval - this.clock.now() : 0;
    if (wait <= 0) return false;
    await this.waitAsked(wait, `X-Poll-Interval: ${last!.interval / 1000}`, signal, where);
    return true;
  }
}

/**
 * One exchange's abort signal: aborted when `totalMs` pass, or when the run's `interrupt` aborts;
 * `end` once the exchange is over. One controller and one timer: AbortSignal.timeout and
 * AbortSignal.any doubled the CPU time of a small undici request (measured: 120 against 58 µs).
 */
function deadline(totalMs: number, interrupt: AbortSignal | undefined): { signal: AbortSignal; overran(): boolean; end(): void } {
  const exchange = new AbortController();
  let overran = false;
  const timer = setTimeout(() => {
    overran = true;
    exchange.abort();
  }, totalMs).unref();
  const stop = () => exchange.abort(interrupt!.reason);
  if (interrupt?.aborted) stop();
  else interrupt?.addEventListener('abort', stop, { once: true });
  return {
    signal: exchange.signal,
    overran: () => overran,
    end: () => {
      clearTimeout(timer);
      interrupt?.removeEventListener('abort', stop);
    },
  };
}

/** As undici's body.text() decodes: UTF-8, a leading byte order mark dropped. */
const utf8 = new TextDecoder();

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * How long a throttled answer asks to wait: a 429, or a 403 with Retry-After (seconds or an HTTP date)
 * or with no request left in the window (until X-RateLimit-Reset). A 429 saying neither is left to the check.
 */
function throttled(reply: Reply, now: number): { ms: number; what: string } | undefined {
  if (reply.status !== 429 && reply.status !== 403) return undefined;
  const retryAfter = reply.headers['retry-after'];
  if (retryAfter !== undefined) {
    const ms = /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : Date.parse(retryAfter) - now;
    if (Number.isFinite(ms)) return { ms: Math.max(ms, 0), what: `Retry-After: ${retryAfter} on a ${reply.status}` };
  }
  const reset = Number(reply.headers['x-ratelimit-reset']);
  if (reply.headers['x-ratelimit-remaining'] === '0' && Number.isFinite(reset)) {
    return { ms: Math.max(reset * 1000 - now + 1000, 0), what: `X-RateLimit-Remaining: 0 on a ${reply.status}, reset ${reset}` };
  }
  return undefined;
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
