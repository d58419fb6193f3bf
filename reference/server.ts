/**
 * The reference implementation: both spec documents served over real HTTP from memory.
 * One pipeline applies the shared conventions (versioning, authentication, rate limits,
 * admission, single sign-on, conditional requests, error bodies) before and after each area's handler.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { matchEndpoint } from '../spec/catalogue.js';
import type { RateCategory } from '../spec/limits.js';
import { vendorNames, type VendorNames } from '../spec/vendor.js';
import { API_VERSIONS } from '../spec/vocabulary.js';
import { notModified } from '../core/conditional.js';
import { listen, normalizePrefix } from '../core/listen.js';
import type { RequestLog } from '../core/request-log.js';
import { AREAS, createState } from './areas/index.js';
import { authenticate } from './auth.js';
import { resolveFaults } from './faults.js';
import { error, type Caller, type Handler, type HandlerContext, type HandlerResult } from './http.js';
import { DEFAULT_LOCKOUT, type LockoutPolicy } from './lockout.js';
import { acceptedPermissions, admit, ssoRefusal } from './policy.js';
import { quotaTable, rateLimitHeaders } from '../core/rate-limiter.js';
import type { ReferenceState } from './state.js';
import { withMilliseconds } from '../core/timestamp.js';

export interface ReferenceOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Path prefix of a self-hosted installation, e.g. /api/v3. */
  prefix?: string;
  faults?: readonly string[];
  /** Vendor word in header and media-type names: `service` (the spec) or e.g. `github`. */
  vendor?: string;
  /** Clock in epoch milliseconds (tests move time forward). */
  now?: () => number;
  /** Serve the retired source-import interface as 503 everywhere. */
  importsRetired?: boolean;
  quotas?: Parameters<typeof quotaTable>[0];
  /** X-Poll-Interval in seconds (default 60, as the real platform sends). */
  pollIntervalSeconds?: number;
  lockout?: Partial<LockoutPolicy>;
  /** Called once per request, after its answer: `--log`. */
  log?: RequestLog;
}

export interface RunningReference {
  /** API root including the prefix, e.g. http://127.0.0.1:8080/api/v3 */
  url: string;
  origin: string;
  port: number;
  state: ReferenceState;
  close(): Promise<void>;
}

const HANDLERS: Record<string, Handler> = Object.assign({}, ...AREAS.map((a) => a.handlers));
const DEFAULT_VERSION = API_VERSIONS[0];
const MAX_BODY = 1024 * 1024;

export async function startReference(options: ReferenceOptions = {}): Promise<RunningReference> {
  const faults = resolveFaults(options.faults ?? []);
  const names = vendorNames(options.vendor ?? 'service');
  const prefix = normalizePrefix(options.prefix ?? '');
  const now = options.now ?? Date.now;
  // A server enforcing another search limit also reports it: the fault changes the quota itself.
  const search = {
    ...options.quotas?.search,
    ...(faults.has('ratelimit-search-limit-60') ? { authenticated: { limit: 60 } } : {}),
    ...(faults.has('ratelimit-anonymous-search-limit-30') ? { anonymous: { limit: 30 } } : {}),
  };
  const quotas = quotaTable({ ...options.quotas, search });
  const state = createState({
    now, quotas, lockout: { ...DEFAULT_LOCKOUT, ...options.lockout },
    importsRetired: options.importsRetired ?? false, pollIntervalSeconds: options.pollIntervalSeconds ?? 60,
  });
  let origin = '';
  const server: Server = createServer((req, res) => {
    const started = performance.now();
    handle(req, res, { state, names, prefix, origin, now, faulty: faults.size > 0, fault: (id) => faults.has(id) }).catch((err: unknown) => {
      if (!res.headersSent) send(res, error(500, `Internal error: ${(err as Error).message}`), {});
      else res.destroy();
    }).finally(() => {
      if (!options.log) return;
      const method = (req.method ?? 'GET').toUpperCase();
      const url = new URL(req.url ?? '/', 'http://reference.invalid');
      const endpoint = url.pathname.startsWith(prefix) ? matchEndpoint(method, url.pathname.slice(prefix.length) || '/')?.endpoint : undefined;
      options.log({ method, url: req.url ?? '/', status: res.statusCode, outcome: endpoint ? `endpoint ${endpoint.id}` : 'miss', ms: performance.now() - started });
    });
  });
  server.keepAliveTimeout = 1000;
  const bound = await listen(server, options.port, options.host);
  origin = bound.origin;
  return {
    url: `${origin}${prefix}`,
    origin,
    port: bound.port,
    state,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

interface Env {
  state: ReferenceState;
  names: VendorNames;
  prefix: string;
  origin: string;
  now: () => number;
  /** Whether any fault is on. */
  faulty: boolean;
  fault: (id: string) => boolean;
}

const NO_FAULT = (): boolean => false;

async function handle(req: IncomingMessage, res: ServerResponse, env: Env): Promise<void> {
  const { state, names } = env;
  const url = new URL(req.url ?? '/', env.origin);
  const method = (req.method ?? 'GET').toUpperCase();
  const path = url.pathname.startsWith(env.prefix) ? url.pathname.slice(env.prefix.length) || '/' : undefined;
  const match = path === undefined ? undefined : matchEndpoint(method, path);
  // A fault named `<id>@<endpoint id>` breaks its rule on that endpoint only.
  // Without faults (most runs) nothing is looked up: a handler asks about dozens per answer.
  const fault = !env.faulty ? NO_FAULT : (id: string) => env.fault(id) || (match !== undefined && env.fault(`${id}@${match.endpoint.id}`));
  const remote = req.socket.remoteAddress ?? 'unknown';
  // The reference's own clock dates its answers, so clients judge its timestamps by it (a shifted clock included).
  const common: Record<string, string> = { Date: new Date(env.now()).toUTCString() };
  const finish = (result: HandlerResult, rate?: { key: string; category: RateCategory; authenticated: boolean }) => {
    if (rate) Object.assign(common, rateLimitHeaders(state.rateLimiter.status(rate.key, rate.category, rate.authenticated), rate.category));
    if (fault('errors-no-message') || fault(`errors-${result.status}-no-message`)) stripMessage(result);
    if (fault('timestamps-with-milliseconds')) result.body = withMilliseconds(result.body);
    if (fault('values-url-fields-objects')) result.body = urlsAsLinks(result.body);
    send(res, result, common);
  };

  const raw = await readBody(req);
  if (raw === undefined) return finish(error(413, 'Request body too large'));

  // Versioning: "Values appearing in the interface: 2022-11-28 and 2026-03-10."
  const requested = header(req, names.apiVersionHeader);
  const version = requested ?? DEFAULT_VERSION;
  const versionRefused = !(API_VERSIONS as readonly string[]).includes(version)
    || (fault('versioning-old-version-refused') && requested === API_VERSIONS[0]) || (fault('versioning-new-version-refused') && requested === API_VERSIONS[1]);
  common[names.apiVersionSelectedHeader] = version;
  const accept = (req.headers.accept ?? '').toLowerCase();
  const textMatch = accept.includes(names.textMatchMediaType) || accept.includes(names.textMatchMediaTypeV3);
  common[names.mediaTypeHeader] = `${names.word}.v3;${textMatch ? ' param=text-match;' : ''} format=json`;

  const auth = authenticate(req.headers, state, remote, fault);
  const caller = auth.ok ? auth.caller : null;
  const rateKey = auth.ok ? auth.caller.rateKey : auth.rateKey;
  const authenticated = caller?.token != null || caller?.client !== undefined;

  if (!match || !auth.ok) {
    // Unknown paths and refused credentials still answer with the caller's core rate-limit headers.
    const rate = { key: rateKey, category: 'core' as const, authenticated };
    if (auth.ok) state.rateLimiter.consume(rateKey, 'core', authenticated);
    return finish(auth.ok ? error(404, 'Not Found') : auth.result, rate);
  }
  const { endpoint, params } = match;
  let category: RateCategory | null = endpoint.category;
  if (category === 'search' && fault('ratelimit-search-shares-core')) category = 'core';
  if (category === null && fault('ratelimit-endpoint-counted')) category = 'core';
  if (endpoint.area === 'events' && fault('ratelimit-events-not-counted')) category = null;
  if (category === 'core' && fault('ratelimit-core-not-counted')) category = null;
  const rate = { key: rateKey, category: category ?? 'core', authenticated };
  const permissions = acceptedPermissions(endpoint, fault);
  if (permissions && !fault('auth-no-accepted-permissions')) common[names.acceptedPermissionsHeader] = permissions;
  if (endpoint.scopes) common['X-Accepted-OAuth-Scopes'] = endpoint.scopes.join(', ');
  if (caller?.token?.scopes) common['X-OAuth-Scopes'] = caller.token.scopes.join(', ');

  if (versionRefused) return finish(error(400, `API version ${version} is not supported.`), rate);
  if (fault('versioning-v3-media-refused') && accept.includes(names.mediaTypeV3)) {
    return finish(error(415, `Unsupported media type ${names.mediaTypeV3}`), rate);
  }
  // The fault serves a caller without a token as the account of the reference's classic token, as a
  // server that never asks who calls would.
  const authedCaller = !auth.caller.token && endpoint.tokens !== 'anonymous-ok' && fault('auth-no-token-admitted')
    ? actingAsClassic(state, auth.caller) : auth.caller;

  if (category) {
    const spent = state.rateLimiter.exhausted(rateKey, category, authenticated, rateKey);
    if (spent) {
      const refusal = error(fault('ratelimit-exhausted-429') ? 429 : 403, spent.message);
      refusal.headers = { 'Retry-After': String(spent.retryAfter) };
      return finish(refusal, rate);
    }
  }

  if (endpoint.area === 'imports' && state.importsRetired) {
    return finish(error(503, 'The source import interface is retired and unavailable.'), rate);
  }
  const refusal = admit(endpoint, authedCaller, fault)
    ?? (fault('auth-sso-unenforced') ? undefined : ssoRefusal(state.world, ssoSubject(authedCaller, fault), params, names, env.origin, !fault('auth-sso-no-header')));
  if (refusal) return count(refusal);

  let body: Record<string, unknown> = {};
  if (raw.length && method !== 'GET') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return count(error(400, 'Problems parsing JSON'));
    }
  }

  const handler = HANDLERS[endpoint.id];
  if (!handler) return count(error(501, `Not implemented: ${endpoint.method} ${endpoint.path}`));
  const ctx: HandlerContext = {
    endpoint, params, query: url.searchParams, body, headers: req.headers, caller: authedCaller, state, names,
    apiBase: `${env.origin}${env.prefix}`, webBase: env.origin, url, textMatch, now: env.now, fault,
  };
  // A conditional-request fault on one endpoint is named after its catalogue id: `cond-etag-unquoted` on events.user is `events-user-etag-unquoted`.
  const result = conditional(req, await handler(ctx), (id) => fault(id) || fault(`${endpoint.id.replace('.', '-')}-${id.replace(/^cond-/, '')}`), env.now);
  return count(result);

  function count(result: HandlerResult): void {
    // "304 answers to conditional requests do not consume the rate limit."
    if (category && (result.status !== 304 || fault('ratelimit-304-counted'))) state.rateLimiter.consume(rateKey, category, authenticated);
    finish(result, rate);
  }
}

/** ETag / If-None-Match on every successful GET, Last-Modified / If-Modified-Since where a handler dates its data. */
function conditional(req: IncomingMessage, result: HandlerResult, fault: (id: string) => boolean, now: () => number): Serialized {
  if ((req.method ?? 'GET').toUpperCase() !== 'GET' || result.status !== 200 || result.body === undefined) return result;
  // A fault makes the validator change with every answer, as one derived from the time of answering would.
  const salt = fault('cond-etag-unstable') ? String(Math.random()) : '';
  // Encoded once: hashed here and sent as these bytes (see send).
  const bytes = Buffer.from(JSON.stringify(result.body));
  const digest = createHash('sha1').update(bytes).update(salt).digest('hex');
  const etag = fault('cond-etag-unquoted') ? digest : `"${digest}"`;
  const headers: Record<string, string> = { ...result.headers, ETag: etag };
  if (result.lastModified !== undefined) headers['Last-Modified'] = new Date(fault('cond-last-modified-now') ? now() : result.lastModified).toUTCString();
  // A fault makes the reference ignore that condition, as a server that never implemented it would.
  const conditions = {
    ifNoneMatch: fault('cond-if-none-match-ignored') ? undefined : req.headers['if-none-match'],
    ifModifiedSince: fault('cond-if-modified-since-ignored') ? undefined : req.headers['if-modified-since'],
  };
  if (notModified(conditions, { etag: `"${digest}"`, lastModified: headers['Last-Modified'] })) return { status: 304, headers };
  return { ...result, headers, serialized: { body: result.body, bytes } };
}

function actingAsClassic(state: ReferenceState, anonymous: Caller): Caller {
  const token = [...state.world.tokens.values()].find((t) => t.role === 'classic')!;
  return { ...anonymous, token, login: token.login };
}

/** With the fault, fine-grained and app user tokens meet single sign-on as a classic token never authorized would. */
function ssoSubject(caller: Caller, fault: (id: string) => boolean): Caller {
  const kind = caller.token?.kind;
  if (!caller.token || (kind !== 'fine-grained' && kind !== 'app-user') || !fault('auth-sso-blocks-fine-grained')) return caller;
  return { ...caller, token: { ...caller.token, kind: 'classic', ssoAuthorized: [] } };
}

/** The fault's body: each `_url` string becomes a link object, as a hypermedia-style API would send it. */
function urlsAsLinks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(urlsAsLinks);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k.endsWith('_url') && typeof v === 'string' ? { href: v } : urlsAsLinks(v)]));
}

function stripMessage(result: HandlerResult): void {
  if (result.status < 400 || !result.body || typeof result.body !== 'object') return;
  const { message, ...rest } = result.body as Record<string, unknown>;
  result.body = { error: message, ...rest };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const EMPTY = Buffer.alloc(0);

/** An answer whose body was serialized already (for its ETag): sent as those bytes unless a fault replaced the body since. */
interface Serialized extends HandlerResult {
  serialized?: { body: unknown; bytes: Buffer };
}

function send(res: ServerResponse, result: Serialized, common: Record<string, string>): void {
  const headers: Record<string, string> = { ...common, ...result.headers };
  const hasBody = result.body !== undefined && result.status !== 204 && result.status !== 205 && result.status !== 304;
  const serialized = result.serialized;
  const payload = !hasBody ? EMPTY : serialized && serialized.body === result.body ? serialized.bytes : Buffer.from(JSON.stringify(result.body));
  if (hasBody) headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = String(payload.length);
  res.writeHead(result.status, headers);
  res.end(payload);
}
