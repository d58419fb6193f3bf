/**
 * The embedded reference behind a tiny node:http front that changes ONE thing in its answers,
 * to stand for a target set up differently (or broken) without writing another server. The
 * alterations the tests use live here, each named for the target it stands for.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import { runConformance, type RunOptions } from '../../src/runner.js';
import { listen } from '../../core/listen.js';
import { referenceProfile } from '../../reference/profile.js';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/server.js';
import type { Profile } from '../../core/profile.js';
import type { RunResult } from '../../core/model.js';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Alteration {
  /** An answer given instead of the reference's; undefined forwards the request. */
  instead?(req: IncomingMessage): Answer | undefined;
  /** The reference's answer, changed. */
  change?(req: IncomingMessage, answer: Answer): Answer;
  /** Whether to leave the request unanswered, as a target that hangs. */
  hangs?(req: IncomingMessage): boolean;
  /** The request headers the reference is sent, changed. */
  forward?(req: IncomingMessage, headers: Record<string, string>): Record<string, string>;
}

export interface AlteredReference {
  /** API root of the front: its origin plus the reference's prefix. */
  url: string;
  origin: string;
  reference: RunningReference;
  /** The reference's own profile, aimed at the front. */
  profile: Profile;
  close(): Promise<void>;
}

/** A JSON answer, as the platform sends them. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  ({ status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) });

const pathOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://front.invalid').pathname;

/** Every request answered 500, as a target whose application is down. */
export const serverErrors: Alteration = { instead: () => json(500, { message: 'Internal Server Error' }) };

/** Every request answered by a gateway's HTML 502 page. */
export const htmlBadGateway: Alteration = {
  instead: () => ({ status: 502, headers: { 'content-type': 'text/html' }, body: '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>' }),
};

/** 406 to any Accept naming the vendor's media types (application/vnd.<word>...), as a target that knows another vendor word. */
export const refuseVendorMediaType = (word = 'service'): Alteration => ({
  instead: (req) => ((req.headers.accept ?? '').toLowerCase().includes(`application/vnd.${word}`) ? json(406, { message: 'Unsupported media type' }) : undefined),
});

/**
 * Rate limiting turned off, as a self-hosted installation can be: GET /rate_limit answers 404
 * "Rate limiting is not enabled." (404 is listed there) and no answer carries X-RateLimit-* headers.
 * Start the reference with `rateLimitingOffQuotas` so it refuses nothing either.
 */
export const rateLimitingOff: Alteration = {
  change: (req, answer) => {
    const headers = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !k.toLowerCase().startsWith('x-ratelimit-')));
    if (pathOf(req).endsWith('/rate_limit') && answer.status === 200) return json(404, { message: 'Rate limiting is not enabled.' }, {});
    return { ...answer, headers };
  },
};
export const rateLimitingOffQuotas: ReferenceOptions['quotas'] = {
  core: { authenticated: { limit: 1_000_000 }, anonymous: { limit: 1_000_000 } },
  search: { authenticated: { limit: 1_000_000 }, anonymous: { limit: 1_000_000 } },
};

/** 401 "Bad credentials" to every request carrying the given token values, or to every request carrying any when none is given. */
export const rejectTokens = (...values: string[]): Alteration => ({
  instead: (req) => {
    const auth = req.headers.authorization;
    if (!auth) return undefined;
    return !values.length || values.some((v) => auth.endsWith(` ${v}`)) ? json(401, { message: 'Bad credentials' }) : undefined;
  },
});

/** Tokens sent as "Bearer <TOKEN>" refused with 401, as a target that knows only the `token` scheme would. */
export const refuseBearer: Alteration = {
  instead: (req) => (/^bearer /i.test(req.headers.authorization ?? '') ? json(401, { message: 'Bad credentials' }) : undefined),
};

/** A JSON answer's body changed by `edit`, for the answers `applies` picks. */
const editJson = (applies: (req: IncomingMessage, answer: Answer) => boolean, edit: (body: Record<string, unknown>) => void): Alteration => ({
  change: (req, answer) => {
    if (!applies(req, answer)) return answer;
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    edit(body);
    return { ...answer, body: JSON.stringify(body) };
  },
});

/** GET /rate_limit without one member in every category and in rate, as a target that does not count it. */
export const rateLimitWithout = (member: string): Alteration => editJson(
  (req, answer) => pathOf(req).endsWith('/rate_limit') && answer.status === 200,
  (body) => {
    for (const status of [...Object.values(body.resources as Record<string, Record<string, unknown>>), body.rate as Record<string, unknown> | undefined]) if (status) delete status[member];
  },
);

/**
 * GET /rate_limit whose every window ends as it is read (`reset` is the second of the answer), as a
 * target read just before its minute turns over: a count compared across two readings spans two windows.
 */
export const windowEndsAsRead: Alteration = editJson(
  (req, answer) => pathOf(req).endsWith('/rate_limit') && answer.status === 200,
  (body) => {
    const now = Math.floor(Date.now() / 1000);
    for (const status of [...Object.values(body.resources as Record<string, Record<string, unknown>>), body.rate as Record<string, unknown> | undefined]) if (status) status.reset = now;
  },
);

/**
 * One field left out of the records of the GET answers whose path matches `where` (a list's
 * entries, a search envelope's items, or the one resource), as a target that does not send it.
 */
export const withoutField = (field: string, where: RegExp): Alteration => editJson(
  (req, answer) => req.method === 'GET' && answer.status === 200 && where.test(pathOf(req)),
  (body) => {
    const records = Array.isArray(body) ? body : Array.isArray(body.items) ? body.items : [body];
    if (field in body && !Array.isArray(body)) delete body[field];
    for (const r of records as Record<string, unknown>[]) delete r[field];
  },
);

const TIMELINE = /\/(?:events|received_events)(?:\/|$)/;

/**
 * Event timelines that gain an event while a poll waits, as those of a busy repository and its users
 * do: a conditional request finds one more event (a copy of the newest, with a new id; the page keeps
 * its size) under a new ETag, so it answers 200. An empty timeline stays as it is.
 */
export const busyTimelines: Alteration = (() => {
  let added = 0;
  const polled = (req: IncomingMessage) => req.method === 'GET' && TIMELINE.test(pathOf(req)) && req.headers['if-none-match'] !== undefined;
  return {
    forward: (req, headers) => {
      if (!polled(req)) return headers;
      const { 'if-none-match': _condition, ...rest } = headers;
      return rest;
    },
    change: (req, answer) => {
      if (!polled(req) || answer.status !== 200) return answer;
      const events = JSON.parse(answer.body) as Record<string, unknown>[];
      if (!events.length) return req.headers['if-none-match'] === answer.headers.etag ? { ...answer, status: 304, body: '' } : answer;
      added += 1;
      const newest = { ...events[0], id: String(9_000_000_000 + added) };
      return { ...answer, headers: { ...answer.headers, etag: `"busy-${added}"` }, body: JSON.stringify([newest, ...events].slice(0, events.length)) };
    },
  };
})();

/** Alert updates answered without dismissed_at and dismissed_by: fields whose requiredness the spec does not show. */
export const alertUpdateWithoutDismissal: Alteration = editJson(
  (req, answer) => req.method === 'PATCH' && pathOf(req).includes('/code-scanning/alerts/') && answer.status === 200,
  (body) => {
    delete body.dismissed_at;
    delete body.dismissed_by;
  },
);

/**
 * Search 422s worded "Validation Failed", with GitHub's capital F, where document 1 quotes
 * 'Validation failed': the same words in other letter case.
 */
export const validationFailedCapitalised: Alteration = editJson(
  (req, answer) => answer.status === 422 && pathOf(req).includes('/search/'),
  (body) => {
    if (body.message === 'Validation failed') body.message = 'Validation Failed';
  },
);

/** What the preflight asks (rate-limit status, public events, the public repository's events), so a run gets past it. */
const PREFLIGHT_PATHS = ['/rate_limit', '/events', '/repos/acme/widgets/events'];

/**
 * The same answer to every request the preflight does not make: the checks meet nothing else, as
 * against a target that refuses everything past the few requests that show it is this API.
 */
export const onlyPreflightServed = (status: number, message: string): Alteration => ({
  instead: (req) => (PREFLIGHT_PATHS.includes(pathOf(req)) ? undefined : json(status, { message })),
});

/** Checks whose subject is a header of the refusal itself: they judge what they read there. */
const READ_FROM_REFUSALS = new Set(['auth.accepted-permissions-header', 'permissions.code-scanning-header']);

/** Checks that passed without one answer below 400 (each saw only refusals, errors or nothing): a pass on nothing. */
export function passedOnNothing(r: RunResult): string[] {
  const statusOf = new Map(r.transcript.map((e) => [e.id, e.response?.status ?? 0]));
  const sawAnswer = (id: number) => { const s = statusOf.get(id) ?? 0; return s > 0 && s < 400; };
  return r.checks.filter((c) => c.outcome === 'pass' && !READ_FROM_REFUSALS.has(c.id) && !c.exchanges.some(sawAnswer)).map((c) => c.id);
}

export async function startAlteredReference(alteration: Alteration, options: ReferenceOptions = {}): Promise<AlteredReference> {
  const reference = await startReference({ port: 0, pollIntervalSeconds: 1, ...options });
  let self = '';
  const front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (alteration.hangs?.(req)) return;
      void answer(req, Buffer.concat(chunks)).then(
        (a) => {
          res.writeHead(a.status, { ...a.headers, 'content-length': String(Buffer.byteLength(a.body)) });
          res.end(a.body);
        },
        () => res.destroy(),
      );
    });
  });
  async function answer(req: IncomingMessage, body: Buffer): Promise<Answer> {
    const instead = alteration.instead?.(req);
    if (instead) return instead;
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => k !== 'host' && k !== 'connection' && k !== 'transfer-encoding' && typeof v === 'string')) as Record<string, string>;
    const sent = alteration.forward?.(req, headers) ?? headers;
    const r = await request(`${reference.origin}${req.url ?? '/'}`, { method: (req.method ?? 'GET') as 'GET', headers: sent, ...(body.length ? { body } : {}) });
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers)) if (v !== undefined && k !== 'content-length' && k !== 'connection' && k !== 'keep-alive') flat[k] = Array.isArray(v) ? v.join(', ') : v;
    // Links name the front, as a target's own: the checks follow only links that stay on the API.
    if (flat.link) flat.link = flat.link.replaceAll(reference.origin, self);
    const got = { status: r.statusCode, headers: flat, body: await r.body.text() };
    return alteration.change ? alteration.change(req, got) : got;
  }
  front.keepAliveTimeout = 1000;
  const bound = await listen(front, 0);
  self = bound.origin;
  const prefix = new URL(reference.url).pathname.replace(/\/$/, '');
  return {
    url: `${bound.origin}${prefix}`,
    origin: bound.origin,
    reference,
    profile: { ...referenceProfile(reference), base_url: bound.origin },
    close: async () => {
      await new Promise<void>((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      });
      await reference.close();
    },
  };
}

/** For the enclosing describe block: a front with this alteration and one run against it, as its profile allows; the getter gives the result. */
export function runAgainst(alteration: Alteration, options: Omit<RunOptions, 'profile'> = {}, reference: ReferenceOptions = {}): () => RunResult {
  let front: AlteredReference | undefined;
  let result: RunResult | undefined;
  beforeAll(async () => {
    front = await startAlteredReference(alteration, reference);
    result = await runConformance({ ...options, profile: front.profile });
  }, 120_000);
  afterAll(() => front?.close());
  return () => result!;
}
