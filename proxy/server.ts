/**
 * The record/replay proxy. Every request is redacted first, then keyed, then answered through the
 * stages (see stage.ts) around the mode's own answer: a fixture (replay), the upstream (record,
 * passthrough) or either (record-missing). Replay never opens a connection: a miss is answered
 * with a 404 naming the nearest fixtures.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { matchEndpoint, type Endpoint } from '../spec/catalogue.js';
import { bodyLimit, BoundedBuffer, DEFAULT_MAX_BODY_BYTES } from '../core/bounds.js';
import { listen, normalizePrefix } from '../core/listen.js';
import { urlSecrets } from '../core/redact/credentials.js';
import type { Redactor } from '../core/redact/redactor.js';
import type { RequestLog } from '../core/request-log.js';
import { answerWith, headersWith, jsonAnswer, type Answer } from './answer.js';
import { bodyBytes, exactBody, rewriteText } from './body.js';
import { Cassette, type Entry, type OpenOptions } from './cassette.js';
import type { RecordedRequest } from './interaction.js';
import { differences, equivalentKeys, matchKey, matchView, routeOf, type MatchView } from './match.js';
import { freshIdentityTable, Identities } from './identities.js';
import { KnownRequests } from './known-requests.js';
import { ExchangeRedactor, mergeRules } from './redact.js';
import { compose, type Exchange, type ProxyMode, type Source, type Stage } from './stage.js';
import { builtinStages, type SynthesisOptions } from './stages.js';
import { FIXTURE_HEADER, PROXY_HEADER, SESSION_HEADER } from '../core/protocol.js';
import { RenderedAnswers, type Rendered } from './rendered.js';
import { endToEnd, Upstream, UPSTREAM_TOTAL_TIMEOUT_MS, UpstreamError } from './upstream.js';

export { FIXTURE_HEADER, PROXY_HEADER, SESSION_HEADER } from '../core/protocol.js';

export interface ProxyOptions extends SynthesisOptions {
  mode: ProxyMode;
  /** Upstream API root including any prefix, e.g. https://host/api/v3 (not used in replay). */
  target?: string;
  /** Cassette folder (not used in passthrough). */
  fixtures?: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** The proxy's own path prefix; requests are matched below it. By default the target's path, in replay the recording's. */
  prefix?: string;
  redactHeaders?: readonly string[];
  redactFields?: readonly string[];
  /** Further stages, run inside the built-in ones (closest to the fixture), outermost first. */
  stages?: readonly Stage[];
  /** Longest upstream silence. */
  upstreamTimeoutMs?: number;
  /** Longest whole upstream exchange, body included. */
  upstreamTotalTimeoutMs?: number;
  /** Largest request body, and largest upstream answer as sent and as decoded. */
  maxBodyBytes?: number;
  /** Replay: bytes of rendered answers kept for reuse (least recently used go first). */
  cacheBytes?: number;
  /** Called once per request, after its answer: `--log`. */
  log?: RequestLog;
}

export interface RunningProxy {
  /** API root as clients use it, including the prefix. */
  url: string;
  origin: string;
  port: number;
  mode: ProxyMode;
  cassette?: Cassette;
  /** How many answers came from each source, and how many interactions were written. */
  stats: Record<Source, number> & { recorded: number };
  /** Stops accepting, lets requests in flight finish (and their fixtures be written), then closes. */
  close(): Promise<void>;
}

const NEAREST = 3;
/** Shared by every bodiless request and answer (never written to). */
const NO_BODY = Buffer.alloc(0);
/** Shared by every request without validators (most), rather than an empty object each. */
const UNCONDITIONAL: Exchange['conditional'] = Object.freeze({});
/** Request headers not stored: the connection's (the proxy's own host, the length of a body stored anyway). */
export const UNSTORED_REQUEST_HEADERS = ['host', 'content-length'];
/** Response headers not stored: the length is recomputed (Date is kept: a replayed body is dated when it was sent). */
export const UNSTORED_RESPONSE_HEADERS = ['content-length'];

/** What a request is matched and staged by; one keyed earlier is reused whole (see known-requests.ts). */
interface Keyed {
  session: string;
  request: RecordedRequest;
  identity: string | null;
  key: string;
  endpoint?: Endpoint;
  conditional: Exchange['conditional'];
  /** The proxy's API root as this client addresses it (its Host header), which rendered answers point to. */
  self: string;
  /** Once replayed: the key its fixtures are under, its fixture files and the session's positions, so a known request looks none up again. */
  recorded?: string;
  files?: readonly string[];
  positions?: Map<string, number>;
}

export async function createProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { mode } = options;
  if (mode !== 'replay' && !options.target) throw new Error(`${mode} mode needs a target URL (--target)`);
  if (mode !== 'passthrough' && !options.fixtures) throw new Error(`${mode} mode needs a fixtures folder (--fixtures)`);
  const writable = mode === 'record' || mode === 'record-missing';
  // Before the cassette, so a bad target or timeout leaves no new fixtures folder behind.
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const upstream = options.target
    ? new Upstream(options.target, { idleMs: options.upstreamTimeoutMs ?? 30_000, totalMs: options.upstreamTotalTimeoutMs ?? UPSTREAM_TOTAL_TIMEOUT_MS, maxBodyBytes: maxBody })
    : undefined;
  const upstreamBase = upstream?.root ?? '';
  const cassette = options.fixtures ? Cassette.open(options.fixtures, { ...cassetteKeys(), writable }) : undefined;
  // Unless told, it serves under the prefix it records from (the target's path), or that its recording served under.
  const prefix = normalizePrefix(options.prefix ?? (upstream ? new URL(upstreamBase).pathname : cassette?.meta.prefix ?? ''));
  if (writable && cassette!.meta.prefix !== prefix) {
    cassette!.meta.prefix = prefix;
    cassette!.saveMeta();
  }

  // Rules a cassette was recorded with keep applying, so its fixtures and live requests are masked alike.
  const meta = cassette?.meta;
  const rules = mergeRules({ headers: meta?.redactHeaders, fields: meta?.redactFields }, { headers: options.redactHeaders, fields: options.redactFields });
  if (meta && writable && (rules.headers.length !== meta.redactHeaders.length || rules.fields.length !== meta.redactFields.length)) {
    Object.assign(meta, { redactHeaders: rules.headers, redactFields: rules.fields });
    cassette.saveMeta();
  }
  const identities = new Identities(meta ?? freshIdentityTable(), writable ? () => cassette!.metaChanged() : undefined);
  // The target's userinfo goes upstream as a credential: an echo of it is scrubbed like the callers' own.
  const redactor = new ExchangeRedactor(identities, rules, urlSecrets(options.target ?? ''));
  const stats = { fixture: 0, upstream: 0, unmatched: 0, 'upstream-error': 0, recorded: 0 };
  /** Per session, per key: how many times the key has been replayed. */
  const positions = new Map<string, Map<string, number>>();
  /** Keys recorded by this run: record-missing keeps recording them, record restarts them once. */
  const recordedNow = new Set<string>();
  const stages = [...builtinStages(mode, options), ...(options.stages ?? [])];
  const rendered = new RenderedAnswers(options.cacheBytes);
  const known = mode === 'replay' ? new KnownRequests<Keyed>() : undefined;
  const logged = options.log !== undefined;
  let selfHost = '';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A client that leaves before its answer is sent ends the upstream exchange too (replay has none).
    const left = mode === 'replay' ? undefined : new AbortController();
    if (left) {
      res.on('close', () => {
        if (!res.writableFinished) left.abort();
      });
    }
    const raw = await readBody(req, maxBody);
    if (!raw) return send(res, jsonAnswer(413, { message: `Request body larger than ${bodyLimit(maxBody)}` }, { [PROXY_HEADER]: 'error' }), false, logged);
    const method = (req.method ?? 'GET').toUpperCase();
    const head = method === 'HEAD';
    const id = known && !raw.length ? KnownRequests.id(req) : undefined;
    let keyed = id === undefined ? undefined : known!.get(id);
    /** The request as sent, for the upstream: absent for one keyed before (replay only). */
    let live: { pathAndQuery: string; headers: Record<string, string>; scrub: Redactor } | undefined;
    if (!keyed) {
      const url = new URL(req.url ?? '/', 'http://proxy.invalid');
      const below = stripPrefix(url.pathname, prefix);
      if (below === undefined) {
        return send(res, jsonAnswer(404, { message: `Not Found: ${url.pathname} is outside the proxy's prefix ${prefix}` }, { [PROXY_HEADER]: 'outside-prefix' }), head, logged);
      }
      const headers = endToEnd(req.headers);
      const session = headers[SESSION_HEADER] || 'default';
      for (const h of [SESSION_HEADER, ...UNSTORED_REQUEST_HEADERS]) delete headers[h];
      const redacted = await identities.settled(() => redactor.request({ method, path: below, query: url.searchParams, headers, body: raw }));
      const view = matchView(redacted.request);
      const endpoint = matchEndpoint(method, view.path)?.endpoint;
      keyed = {
        session, request: redacted.request, identity: redacted.identity, key: matchKey(view),
        ...(endpoint ? { endpoint } : {}),
        conditional: headers['if-none-match'] || headers['if-modified-since'] ? {
          ...(headers['if-none-match'] ? { ifNoneMatch: headers['if-none-match'] } : {}),
          ...(headers['if-modified-since'] ? { ifModifiedSince: headers['if-modified-since'] } : {}),
        } : UNCONDITIONAL,
        self: `http://${req.headers.host ?? selfHost}${prefix}`,
      };
      if (id !== undefined && redacted.repeatable) known!.set(id, keyed);
      live = { pathAndQuery: below + url.search, headers, scrub: redacted.scrub };
    }
    const { endpoint } = keyed;
    // Replay's cassette never changes: a known request's recorded key is found once.
    const key = mode === 'replay' ? (keyed.recorded ??= recordedKey(keyed)) : mode === 'record-missing' ? recordedKey(keyed) : keyed.key;
    const x: Exchange = {
      mode, session: keyed.session, request: keyed.request, identity: keyed.identity,
      ...(endpoint ? { endpoint } : {}),
      // Unknown paths count against core, as on the platform; catalogued ones carry their category (null: not counted).
      category: endpoint ? endpoint.category : 'core',
      conditional: keyed.conditional,
    };
    const { self } = keyed;

    const replay = (): Answer => {
      // Replay only keeps requests (see known), and its cassette never changes: what was found stays true.
      const files = keyed.files ??= cassette?.sequence(key) ?? [];
      if (!files.length) {
        x.source = 'unmatched';
        return unmatched(matchView(x.request));
      }
      let mine = keyed.positions ?? positions.get(x.session);
      if (!mine) {
        mine = new Map<string, number>();
        positions.set(x.session, mine);
      }
      keyed.positions = mine;
      const at = mine.get(key) ?? 0;
      mine.set(key, at + 1);
      // Past the end the last answer sticks (a polled import stays complete).
      const index = Math.min(at, files.length - 1);
      const served = (i: number) => rendered.get(files[i]!, self, () => fromFixture(cassette!.entry(key, files[i]!), self));
      let file = index;
      let chosen = served(index);
      // A recorded 304 confirmed the full answer before it: serve that one; a conditional stage decides on 304.
      for (let i = index - 1; chosen.answer.status === 304 && i >= 0; i--) {
        const earlier = served(i);
        if (earlier.answer.status !== 304) [file, chosen] = [i, earlier];
      }
      x.source = 'fixture';
      x.fixture = { file: files[file]!, recordedAt: chosen.recordedAt, durationMs: chosen.durationMs };
      return chosen.answer;
    };

    const forward = async (record: boolean): Promise<Answer> => {
      const sent = live!;
      let up;
      try {
        up = await upstream!.forward(method, sent.pathAndQuery, sent.headers, raw, left!.signal);
      } catch (err) {
        if (!(err instanceof UpstreamError)) throw err;
        x.source = 'upstream-error';
        return jsonAnswer(502, { message: err.message, cause: err.code }, { [PROXY_HEADER]: 'upstream-error' });
      }
      x.source = 'upstream';
      if (record) {
        save(x.request, key, up, sent.scrub);
        recordedNow.add(key);
      }
      const rewrite = rewriter(upstreamBase, self);
      const out = Object.fromEntries(Object.entries(up.headers).map(([k, v]) => [k, rewrite(v)]));
      const body = rewriteText(up.body, rewrite);
      return { status: up.status, headers: { ...out, [PROXY_HEADER]: record ? 'recorded' : 'forwarded' }, ...(body.length ? { body } : {}) };
    };

    const inner = async (): Promise<Answer> => {
      if (mode === 'replay') return replay();
      const known = (cassette?.sequence(key).length ?? 0) > 0 && !recordedNow.has(key);
      if (mode === 'record-missing' && known) return replay();
      return forward(mode !== 'passthrough');
    };

    const answer = await compose(stages, inner)(x);
    if (x.source) stats[x.source]++;
    // An answer a stage made itself (GET /rate_limit, a refusal, a fault) says so.
    send(res, PROXY_HEADER in answer.headers ? answer : answerWith(answer, headersWith(answer.headers, { [PROXY_HEADER]: 'synthesized' })), head, logged);
  }

  /** The key a request's fixtures are under: its own, else that of the same request asking for an equivalent media type. */
  function recordedKey({ key, request }: Keyed): string {
    if (!cassette || cassette.sequence(key).length) return key;
    return equivalentKeys(matchView(request)).find((k) => cassette.sequence(k).length > 0) ?? key;
  }

  function save(request: RecordedRequest, key: string, up: Awaited<ReturnType<Upstream['forward']>>, scrub: Redactor): void {
    const stored = Object.fromEntries(Object.entries(up.headers).filter(([k]) => !UNSTORED_RESPONSE_HEADERS.includes(k)));
    const response = {
      ...redactor.response(up.status, stored, exactBody(up.body, up.headers['content-type']), scrub),
      ...(up.contentEncoding ? { contentEncoding: up.contentEncoding } : {}),
    };
    cassette!.add({
      version: 1, key, recordedAt: new Date().toISOString(), upstream: upstreamBase, request, response, durationMs: up.durationMs,
    }, mode === 'record' && !recordedNow.has(key));
    stats.recorded++;
  }

  function fromFixture(entry: Entry, self: string): Rendered {
    const { response, upstream: recordedFrom, recordedAt, durationMs } = entry.interaction;
    const rewrite = rewriter(recordedFrom, self);
    const headers = Object.fromEntries(Object.entries(response.headers).filter(([k]) => !UNSTORED_RESPONSE_HEADERS.includes(k)).map(([k, v]) => [k, rewrite(v)]));
    const body = rewriteText(bodyBytes(response.body), rewrite);
    const answer = {
      status: response.status,
      headers: headersWith(headers, { [PROXY_HEADER]: 'replayed', [FIXTURE_HEADER]: entry.file }),
      ...(body.length ? { body } : {}),
    };
    return { answer, recordedAt, durationMs };
  }

  function unmatched(view: MatchView): Answer {
    const nearest = (cassette?.near(routeOf(view)) ?? [])
      .map((e) => ({ file: e.file, differences: differences(matchView(e.interaction.request), view) }))
      .sort((a, b) => a.differences.length - b.differences.length)
      .slice(0, NEAREST);
    const query = new URLSearchParams(Object.entries(view.query).flatMap(([k, vs]) => vs.map((v) => [k, v]))).toString();
    return jsonAnswer(404, {
      message: `No recorded interaction matches ${view.method} ${view.path}${query ? `?${query}` : ''}; ${mode} mode does not forward it`,
      request: { method: view.method, path: view.path, query: view.query },
      nearest,
    }, { [PROXY_HEADER]: 'unmatched' });
  }

  const inFlight = new Set<Promise<void>>();
  const server: Server = createServer((req, res) => {
    const started = performance.now();
    const done = handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, jsonAnswer(500, { message: `proxy error: ${(err as Error).message}` }, { [PROXY_HEADER]: 'error' }), false, logged);
      else res.destroy();
    }).finally(() => {
      inFlight.delete(done);
      options.log?.({ method: req.method ?? 'GET', url: req.url ?? '/', status: res.statusCode, outcome: outcomeOf(res), ms: performance.now() - started });
    });
    inFlight.add(done);
  });
  const { origin, port } = await listen(server, options.port, options.host);
  selfHost = new URL(origin).host;
  return {
    url: `${origin}${prefix}`, origin, port, mode, stats,
    ...(cassette ? { cassette } : {}),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.allSettled([...inFlight]);
      server.closeAllConnections();
      await closed;
      try {
        cassette?.flush();
      } finally {
        upstream?.close();
      }
    },
  };
}

/** How the proxy keys and groups a cassette's interactions (also for tools that write cassettes, like HAR import). */
export function cassetteKeys(): Pick<OpenOptions, 'keyOf' | 'routeOf'> {
  return { keyOf: (r) => matchKey(matchView(r)), routeOf };
}

/**
 * Replaces the recorded upstream root with the proxy's own wherever it starts a URL (not a longer
 * port or path segment), also as JSON may write it (`http:\/\/host\/api`). Nothing else of the text changes.
 */
function rewriter(from: string, to: string): (s: string) => string {
  if (!from || from === to) return (s) => s;
  const escaped = (url: string) => url.replace(/\//g, '\\/');
  const roots: [string, string][] = [[from, to], [escaped(from), escaped(to)]];
  const replacers = roots.map(([root, by]) => {
    const pattern = new RegExp(`${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.~%:-])`, 'g');
    return (s: string) => (s.includes(root) ? s.replace(pattern, () => by) : s);
  });
  return (s) => replacers.reduce((out, replace) => replace(out), s);
}

/** Each answer's headers as sent, for the log (headers given to writeHead are not kept on the response); only kept with a log. */
const sentHeaders = new WeakMap<ServerResponse, Readonly<Record<string, string>>>();

/** What the answer's own header says of its source: the fixture served, `miss`, or how else it came about. */
function outcomeOf(res: ServerResponse): string {
  const headers = sentHeaders.get(res) ?? {};
  const source = headers[PROXY_HEADER] ?? 'no answer';
  if (source === 'replayed') return `fixture ${headers[FIXTURE_HEADER]}`;
  return source === 'unmatched' ? 'miss' : source;
}

/** Framing headers the proxy sets itself from the bytes it sends. */
const FRAMING = new Set(['content-length', 'transfer-encoding']);

/** Sends `answer`; its headers go to writeHead as one flat list, read once, never copied into another object. */
function send(res: ServerResponse, answer: Answer, head: boolean, logged: boolean): void {
  if (logged) sentHeaders.set(res, answer.headers);
  const bodyless = answer.status === 204 || answer.status === 304 || answer.status < 200;
  const body = bodyless ? NO_BODY : answer.body ?? NO_BODY;
  const flat: string[] = [];
  for (const name in answer.headers) if (!FRAMING.has(name)) flat.push(name, answer.headers[name]!);
  if (!bodyless) flat.push('content-length', String(body.length));
  res.writeHead(answer.status, flat);
  res.end(head ? undefined : body);
}

/** The request body, or undefined when it is over `limit` (read to its end, kept no further, so the 413 can be answered). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  // A request that declares no body has none (RFC 9112 section 6.3): not read, node:http discards the empty stream.
  if (req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] ?? '0') === '0') return Promise.resolve(NO_BODY);
  return new Promise((resolve, reject) => {
    const body = new BoundedBuffer(limit);
    req.on('data', (c: Buffer) => body.add(c));
    req.on('end', () => resolve(body.over ? undefined : body.bytes()));
    req.on('error', reject);
  });
}

function stripPrefix(path: string, prefix: string): string | undefined {
  if (!prefix) return path;
  if (path === prefix) return '/';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
}
