/**
 * The conventions that hold for every endpoint (token schemes, invalid credentials, no token, error
 * bodies, API versions, media types) or a family of them (quoted ETags, X-Poll-Interval), checked on each endpoint the profile can reach: one check per
 * (rule, endpoint), generated from the catalogue, so a report and the coverage matrix say which
 * endpoint broke which rule.
 *
 * A write is checked with a request that leaves the state as it found it (suites/requests.ts),
 * so the control and every probe, even one a broken server wrongly admits, change nothing. On a
 * search endpoint the positive rules (token scheme, versions, media types) share two requests of a
 * second user (SEARCH_CALLER), so they fit the search windows a run may spend. Left out, for reasons
 * given with the pairs in spec/coverage/exemptions.ts: writes no such request exists for, and
 * password probes (repeated attempts of the profile's user are what the stated lockout punishes).
 */
import { CATALOGUE, type Endpoint } from '../spec/catalogue.js';
import { GOVERNS } from '../spec/coverage/governs.js';
import { API_VERSIONS } from '../spec/vocabulary.js';
import type { Reply, RequestOptions } from '../src/client.js';
import type { TokenName } from '../src/profile.js';
import { expectRefusal, judgeRefusal } from '../src/refusal.js';
import type { CheckContext, CheckSpec, Suite } from '../src/suite.js';
import { ANONYMOUS, ensureImport, REQUESTS, SEARCH_CALLER, skipWithoutImport, UNCHANGING_WRITES, type UnchangingWrite } from './requests.js';

interface Rule {
  /** Check id prefix; the endpoint id follows it. */
  prefix: string;
  requirement: string;
  title: (e: Endpoint) => string;
  /** Tokens the check needs besides the identity that reaches the endpoint. */
  tokens: TokenName[];
  /** Whether a search endpoint can afford the check as it is: its requests count against no search window (positive rules share theirs: `variations`). */
  searchFree: boolean;
  /** Which of the endpoints the requirement governs (spec/coverage/governs.ts) it can be checked on, when not all. */
  applies?: (e: Endpoint) => boolean;
  /** The check sends the recommended media type on purpose: where the target refuses it, the preflight reports that once. */
  vendorMediaType?: boolean;
  /**
   * A positive rule: the variations of the control it says are accepted, given the caller the check
   * acts as (undefined: the endpoint's usual identity). On search they share requests (sharedProbe).
   */
  variations?: (t: CheckContext, caller?: TokenName) => Variation[];
  /** `req`: the request that reaches the endpoint's success (a write's leaves the state as it found it). */
  run: (t: CheckContext, e: Endpoint, req: RequestOptions) => Promise<void>;
}

interface Variation {
  /** The variation in words, for a failure. */
  what: string;
  /** The spec's words that admit it. */
  source: string;
  change: Pick<RequestOptions, 'as' | 'headers'>;
}

const line = (e: Endpoint, req: RequestOptions) => `${e.method} ${req.path.split('?')[0]}`;

/**
 * A search control is the schema check's own request, whose reply a whole run reuses rather than
 * spend the search window again (search results are fixed data); other endpoints' state may have
 * changed since, so their controls are sent afresh.
 */
const reuse = (e: Endpoint) => e.category === 'search';

/** The request the rule's probes vary, which must reach the endpoint's success for a probe to mean anything. */
async function control(t: CheckContext, e: Endpoint, req: RequestOptions, extra: Partial<RequestOptions> = {}): Promise<Reply | undefined> {
  const reply = await t.request({ ...req, reuse: reuse(e), ...extra });
  if (reply.status === e.success.status) return reply;
  skipWithoutImport(t, e, reply);
  t.inconclusive(`the control ${line(e, req)} answered ${reply.status}, not ${e.success.status}, so the endpoint was not reached`);
  return undefined;
}

/** A variation of the control that the rule says is accepted: it must get the same success status. */
function expectAccepted(t: CheckContext, e: Endpoint, req: RequestOptions, reply: Reply, what: string, source: string): void {
  if (reply.status === e.success.status) return;
  if (reply.status === 429 || reply.status === 503) return t.inconclusive(`${line(e, req)} with ${what} answered ${reply.status}, throttled or unavailable; try again later`);
  const m = (reply.json as { message?: unknown } | undefined)?.message;
  t.fail(`${line(e, req)} with ${what} answered ${reply.status}${typeof m === 'string' ? ` (message: ${m})` : ''}, while the same request without it answered ${e.success.status} (${source})`);
}

/**
 * The i-th shared request on a search endpoint, or undefined when no positive rule has an i-th
 * variation. Search requests are scarce (one window of the search limit per caller a run), so the
 * positive rules' checks on a search endpoint act as the search caller (suites/requests.ts) and share
 * their requests: the i-th carries the i-th variation of every positive rule at once ("token <TOKEN>",
 * the first listed version and the older media type; then the second version). A correct server
 * accepts it, which shows each variation accepted; only where it is refused does a check send its
 * own variation alone, to tell which one the server refuses.
 */
function sharedProbe(t: CheckContext, req: RequestOptions, i: number): RequestOptions | undefined {
  // A rule whose checks are skipped (the target refuses the vendor media type) lends no variation.
  const running = RULES.filter((r) => !r.vendorMediaType || t.client.accept === t.names.mediaType);
  const changes = running.flatMap((r) => r.variations?.(t, SEARCH_CALLER)[i]?.change ?? []);
  if (!changes.length) return undefined;
  const headers = Object.assign({}, ...changes.map((c) => c.headers ?? {})) as Record<string, string>;
  return { ...req, as: changes.find((c) => c.as)?.as ?? SEARCH_CALLER, headers, reuse: true };
}

/** The control, then each of the rule's variations: each must get the control's success status. */
async function acceptsEach(t: CheckContext, e: Endpoint, req: RequestOptions, requirement: string, caller?: TokenName): Promise<void> {
  const search = e.category === 'search';
  const as = search ? SEARCH_CALLER : caller;
  if (!(await control(t, e, req, as ? { as } : {}))) return;
  const rule = RULES.find((r) => r.requirement === requirement)!;
  for (const [i, v] of rule.variations!(t, as).entries()) {
    const shared = search ? sharedProbe(t, req, i) : undefined;
    if (shared && (await t.request(shared)).status === e.success.status) continue;
    const reply = await t.request({ ...req, ...(as ? { as } : {}), ...v.change });
    expectAccepted(t, e, req, reply, v.what, v.source);
  }
}

const RULES: readonly Rule[] = [
  {
    prefix: 'auth.token-scheme', requirement: 'auth.bearer-and-token-schemes', tokens: ['classic'], searchFree: false,
    title: (e) => `${e.method} ${e.path} accepts the token as "token <TOKEN>" as it does as "Bearer <TOKEN>"`,
    variations: (t, caller) => [{
      what: '"token <TOKEN>"', source: 'Authentication: both `Bearer <TOKEN>` and `token <TOKEN>` are accepted',
      change: { as: { raw: `token ${t.client.tokenValue(caller ?? 'classic')!}` } },
    }],
    run: (t, e, req) => acceptsEach(t, e, req, 'auth.bearer-and-token-schemes', e.category === 'search' ? SEARCH_CALLER : 'classic'),
  },
  {
    prefix: 'auth.invalid-401', requirement: 'auth.invalid-credentials-401', tokens: ['invalid'], searchFree: true,
    title: (e) => `${e.method} ${e.path} answers invalid credentials 401`,
    async run(t, e, req) {
      const reached = await t.request({ ...req, reuse: reuse(e) });
      skipWithoutImport(t, e, reached);
      await expectRefusal(t, { probe: { ...req, as: 'invalid' }, control: reached, expected: [401], what: `${line(e, req)} with an invalid token` });
    },
  },
  {
    // Public timelines (a public repository's events) are open to anyone, and notification endpoints
    // list 401, the errors table's "Requires authentication": the rule is checked where a token is required.
    prefix: 'auth.no-token', requirement: 'auth.no-token-404-or-403', tokens: [], searchFree: true, applies: (e) => e.tokens === 'token-required',
    title: (e) => `${e.method} ${e.path} answers a caller without a token 404 or 403`,
    async run(t, e, req) {
      const reached = await t.request(req);
      skipWithoutImport(t, e, reached);
      await expectRefusal(t, { probe: { ...req, as: null }, control: reached, expected: [403, 404], what: `${line(e, req)} without a token` });
    },
  },
  {
    prefix: 'errors.message', requirement: 'errors.message', tokens: ['invalid'], searchFree: true,
    title: (e) => `${e.method} ${e.path} answers an error with a message string`,
    async run(t, e, req) {
      // Invalid credentials: the one error every endpoint gives, and one no search window counts. The
      // control (the same request as the profile's caller, an earlier answer reused) shows the error is
      // the one asked for, not a refusal of everything (404 everywhere, 406 to the media type).
      const reached = await t.request({ ...req, reuse: true });
      skipWithoutImport(t, e, reached);
      const reply = await t.request({ ...req, as: 'invalid' });
      const { verdict, reason } = judgeRefusal(reply.status, reached.status);
      if (verdict !== 'refused') return t.skip('inconclusive', `${line(e, req)} with an invalid token: ${reason}`);
      const message = (reply.json as { message?: unknown } | undefined)?.message;
      if (typeof message !== 'string') t.fail(`${line(e, req)} answered ${reply.status} without a message string: ${reply.text.slice(0, 120)}`);
    },
  },
  {
    prefix: 'conditional.etag-quoted', requirement: 'cond.etag-quoted', tokens: [], searchFree: false,
    title: (e) => `${e.method} ${e.path} sends a quoted ETag`,
    async run(t, e, req) {
      // Any earlier answer of the run shows the header as well as a new one.
      const reply = await control(t, e, req, { reuse: true });
      if (!reply) return;
      const etag = reply.headers.etag;
      if (!etag) t.fail(`${line(e, req)}: no ETag header`);
      else if (!/^(W\/)?"[^"]*"$/.test(etag)) t.fail(`${line(e, req)}: ETag ${etag} is not a quoted value`);
    },
  },
  {
    prefix: 'conditional.poll-interval', requirement: 'poll.interval-header', tokens: [], searchFree: false,
    title: (e) => `${e.method} ${e.path} carries X-Poll-Interval`,
    async run(t, e, req) {
      const reply = await control(t, e, req, { reuse: true });
      if (!reply) return;
      const v = reply.headers['x-poll-interval'];
      if (v === undefined) t.fail(`${line(e, req)}: no X-Poll-Interval`);
      else if (!/^\d+$/.test(v)) t.fail(`${line(e, req)}: X-Poll-Interval "${v}" is not a number of seconds`);
    },
  },
  {
    prefix: 'versioning.versions', requirement: 'versioning.listed-versions', tokens: [], searchFree: false,
    title: (e) => `${e.method} ${e.path} accepts both listed API versions`,
    variations: (t) => API_VERSIONS.map((v) => ({
      what: `${t.names.apiVersionHeader}: ${v}`, source: `Versioning: values appearing in the interface: ${API_VERSIONS.join(' and ')}`,
      change: { headers: { [t.names.apiVersionHeader]: v } },
    })),
    run: (t, e, req) => acceptsEach(t, e, req, 'versioning.listed-versions'),
  },
  {
    prefix: 'versioning.media', requirement: 'versioning.media-types', tokens: [], searchFree: false, vendorMediaType: true,
    title: (e) => `${e.method} ${e.path} accepts the recommended and the older media type`,
    // The recommended type is the client's default Accept: the control is sent with it.
    variations: (t) => [{
      what: `accept: ${t.names.mediaTypeV3}`, source: 'Versioning: the recommended media type and the older form',
      change: { headers: { accept: t.names.mediaTypeV3 } },
    }],
    run: (t, e, req) => acceptsEach(t, e, req, 'versioning.media-types'),
  },
];

/** How a check reaches an endpoint: a GET the shared requests build, or a write that changes nothing. */
function reach(e: Endpoint): UnchangingWrite | undefined {
  if (e.method !== 'GET') return UNCHANGING_WRITES[e.id];
  const how = REQUESTS[e.id];
  return how && { needs: how.needs, request: async (t) => ({ path: await how.path(t) }) };
}

function check(rule: Rule, e: Endpoint, how: UnchangingWrite): CheckSpec {
  const identity: TokenName[] = ANONYMOUS.has(e.id) ? [] : ['classic'];
  // A positive rule on search acts as the search caller alone (see SEARCH_CALLER).
  const tokens = rule.variations && e.category === 'search' ? [SEARCH_CALLER] : [...new Set([...identity, ...rule.tokens])];
  return {
    id: `${rule.prefix}.${e.id}`,
    title: rule.title(e),
    requirement: rule.requirement,
    // A write changes nothing, yet it is a write: it runs only where writes are allowed.
    ...(e.method !== 'GET' ? { writes: true } : {}),
    needs: {
      ...(ANONYMOUS.has(e.id) ? { anonymous: true } : {}), ...(tokens.length ? { tokens } : {}), resources: how.needs,
      ...(e.path === '/rate_limit' ? { rateLimiting: true } : {}), ...(rule.vendorMediaType ? { vendorMediaType: true } : {}),
    },
    async run(t) {
      if (e.area === 'imports' && t.writesAllowed) await ensureImport(t);
      await rule.run(t, e, await how.request(t));
    },
  };
}

/** Every (rule, endpoint) check the endpoint can be reached for, search ones only where the rule costs no search. */
export const CROSS_CUTTING_CHECKS: readonly CheckSpec[] = RULES.flatMap((rule) => CATALOGUE.flatMap((e) => {
  const how = reach(e);
  const governed = GOVERNS[rule.requirement]?.endpoints.includes(e.id);
  if (!how || !governed || (e.category === 'search' && !rule.searchFree && !rule.variations) || (rule.applies && !rule.applies(e))) return [];
  return [check(rule, e, how)];
}));

export const crossCuttingSuite: Suite = {
  name: 'cross-cutting',
  description: 'Token schemes, invalid credentials, no token, error bodies, API versions and media types, on every endpoint reached without a change.',
  checks: () => [...CROSS_CUTTING_CHECKS],
};
