/**
 * The conventions that hold for every endpoint (token schemes, invalid credentials, no token, error
 * bodies, API versions, media types) or a family of them (classic tokens and their scopes on the
 * notification endpoints, quoted ETags, X-Poll-Interval), checked on each endpoint the profile can reach: one check per
 * (rule, endpoint), generated from the catalogue, so a report and the coverage matrix say which
 * endpoint broke which rule.
 *
 * A write is checked with a request that leaves the state as it found it (suites/requests.ts),
 * so the control and every probe, even one a broken server wrongly admits, change nothing; where no
 * such request exists, with one whose change is put back before each further send and when the
 * check is done. On a search endpoint the positive rules (token scheme, versions, media types) share
 * two requests of a second user (SEARCH_CALLER), so they fit the search windows a run may spend. Left
 * out, for reasons given with the pairs in spec/coverage/exemptions.ts: password probes (repeated
 * attempts of the profile's user are what the stated lockout punishes: suites/lockout.ts sends them as its sacrificial user).
 */
import { CATALOGUE, type Endpoint } from '../spec/catalogue.js';
import { GOVERNS } from '../spec/coverage/governs.js';
import { API_VERSIONS } from '../spec/vocabulary.js';
import type { Reply, RequestOptions } from '../core/client.js';
import { NOT_CLASSIC_TOKENS, type TokenName } from '../core/profile.js';
import { expectRefusal, judgeRefusal } from '../core/refusal.js';
import type { CheckContext, CheckSpec, Suite } from '../core/suite.js';
import { ANONYMOUS, changes, ensureImport, reachForStatus, SEARCH_CALLER, skipWithoutImport, type UnchangingWrite } from './requests.js';

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
  /** The check sends Bearer on purpose: where the target accepts only `token`, the preflight reports that once. */
  bearerScheme?: boolean;
  /**
   * A positive rule: the variations of the control it says are accepted, given the caller the check
   * acts as (undefined: the endpoint's usual identity). On search they share requests (sharedProbe).
   */
  variations?: (t: CheckContext, caller?: TokenName) => Variation[];
  /**
   * The control's own form, where the spec states it accepted too (Bearer, the recommended media
   * type): a control refused where a variation reaches the endpoint is then itself the failure.
   */
  controlForm?: (t: CheckContext) => string;
  /**
   * `req`: the request that reaches the endpoint's success (a write's leaves the state as it found it,
   * or is put back); `again` before each further send of it, so every probe finds what the control found.
   */
  run: (t: CheckContext, e: Endpoint, req: RequestOptions, again: () => Promise<void>) => Promise<void>;
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
async function acceptsEach(t: CheckContext, e: Endpoint, req: RequestOptions, requirement: string, again: () => Promise<void>, caller?: TokenName): Promise<void> {
  const search = e.category === 'search';
  const as = search ? SEARCH_CALLER : caller;
  const rule = RULES.find((r) => r.requirement === requirement)!;
  const variations = rule.variations!(t, as);
  const reached = await t.request({ ...req, reuse: reuse(e), ...(as ? { as } : {}) });
  if (reached.status !== e.success.status) {
    const first = variations[0]!;
    if (rule.controlForm && reached.status < 500 && reached.status !== 429) {
      await again();
      const alone = await t.request({ ...req, ...(as ? { as } : {}), ...first.change });
      if (alone.status === e.success.status) {
        const m = (reached.json as { message?: unknown } | undefined)?.message;
        return t.fail(`${line(e, req)} with ${rule.controlForm(t)} answered ${reached.status}${typeof m === 'string' ? ` (message: ${m})` : ''}, while with ${first.what} it answered ${e.success.status} (${first.source})`);
      }
    }
    skipWithoutImport(t, e, reached);
    return t.inconclusive(`the control ${line(e, req)} answered ${reached.status}, not ${e.success.status}, so the endpoint was not reached`);
  }
  for (const [i, v] of variations.entries()) {
    const shared = search ? sharedProbe(t, req, i) : undefined;
    if (shared && (await t.request(shared)).status === e.success.status) continue;
    await again();
    const reply = await t.request({ ...req, ...(as ? { as } : {}), ...v.change });
    expectAccepted(t, e, req, reply, v.what, v.source);
  }
}

const RULES: readonly Rule[] = [
  {
    prefix: 'auth.token-scheme', requirement: 'auth.bearer-and-token-schemes', tokens: ['classic'], searchFree: false, bearerScheme: true,
    title: (e) => `${e.method} ${e.path} accepts the token as "token <TOKEN>" as it does as "Bearer <TOKEN>"`,
    variations: (t, caller) => [{
      what: '"token <TOKEN>"', source: 'Authentication: both `Bearer <TOKEN>` and `token <TOKEN>` are accepted',
      change: { as: { raw: `token ${t.client.tokenValue(caller ?? 'classic')!}` } },
    }],
    controlForm: () => '"Bearer <TOKEN>"',
    run: (t, e, req, again) => acceptsEach(t, e, req, 'auth.bearer-and-token-schemes', again, 'classic'),
  },
  {
    prefix: 'auth.invalid-401', requirement: 'auth.invalid-credentials-401', tokens: ['invalid'], searchFree: true,
    title: (e) => `${e.method} ${e.path} answers invalid credentials 401`,
    async run(t, e, req, again) {
      const reached = await t.request({ ...req, reuse: reuse(e) });
      skipWithoutImport(t, e, reached);
      await again();
      await expectRefusal(t, { probe: { ...req, as: 'invalid' }, control: reached, expected: [401], what: `${line(e, req)} with an invalid token` });
    },
  },
  {
    // Public timelines (a public repository's events) are open to anyone: the rule is checked where a token is needed.
    prefix: 'auth.no-token', requirement: 'auth.no-token-404-or-403', tokens: [], searchFree: true, applies: (e) => e.tokens !== 'anonymous-ok',
    title: (e) => `${e.method} ${e.path} answers a caller without a token 404 or 403${e.area === 'notifications' ? ' (or 401)' : ''}`,
    async run(t, e, req, again) {
      const reached = await t.request(req);
      skipWithoutImport(t, e, reached);
      await again();
      // Notification endpoints list 401, which the errors table reads "Requires authentication": the
      // answer to a caller without a token. A server following that table, or Authentication's "404
      // or 403", is correct; any other answer, a success above all, is not.
      const expected = e.area === 'notifications' ? [401, 403, 404] : [403, 404];
      await expectRefusal(t, { probe: { ...req, as: null }, control: reached, expected, what: `${line(e, req)} without a token` });
    },
  },
  {
    prefix: 'errors.message', requirement: 'errors.message', tokens: ['invalid'], searchFree: true,
    title: (e) => `${e.method} ${e.path} answers an error with a message string`,
    async run(t, e, req, again) {
      // Invalid credentials: the one error every endpoint gives, and one no search window counts. The
      // control (the same request as the profile's caller, an earlier answer reused) shows the error is
      // the one asked for, not a refusal of everything (404 everywhere, 406 to the media type).
      const reached = await t.request({ ...req, reuse: true });
      skipWithoutImport(t, e, reached);
      await again();
      const reply = await t.request({ ...req, as: 'invalid' });
      const { verdict, reason } = judgeRefusal(reply.status, reached.status);
      if (verdict !== 'refused') return t.skip('inconclusive', `${line(e, req)} with an invalid token: ${reason}`);
      const message = (reply.json as { message?: unknown } | undefined)?.message;
      if (typeof message !== 'string') t.fail(`${line(e, req)} answered ${reply.status} without a message string: ${t.client.excerpt(reply.text, 120)}`);
    },
  },
  {
    // The reads are checked by auth.notifications-classic-only and notifications.classic-only-variants.
    prefix: 'notifications.classic-only', requirement: 'notifications.classic-only', tokens: [], searchFree: true, applies: (e) => e.method !== 'GET',
    title: (e) => `${e.method} ${e.path} refuses tokens other than a classic personal access token`,
    async run(t, e, req, again) {
      const others = NOT_CLASSIC_TOKENS.filter((n) => t.profile.tokens?.[n]);
      if (!others.length) return t.skip('missing-token', 'the profile names no fine_grained, app_user or app_installation token');
      const reached = await t.request(req);
      // No status is stated: the refusals of document 1's Authentication (401, 403, 404).
      for (const as of others) {
        await again();
        await expectRefusal(t, { probe: { ...req, as }, control: reached, expected: [401, 403, 404], what: `${line(e, req)} with the ${as} token` });
      }
    },
  },
  {
    // The two listings are checked by notifications.scopes.
    prefix: 'notifications.scopes', requirement: 'notifications.scopes', tokens: ['classic_public'], searchFree: true, applies: (e) => !e.perPage,
    title: (e) => `${e.method} ${e.path} refuses a classic token holding neither of its scopes`,
    async run(t, e, req, again) {
      const held = t.profile.tokens?.classic_public?.scopes;
      if (!held || held.some((s) => e.scopes?.includes(s))) {
        return t.skip('missing-token', `tokens.classic_public.scopes is ${JSON.stringify(held)}: not declared without ${e.scopes?.join(' and ')}`);
      }
      const reached = await t.request(req);
      await again();
      await expectRefusal(t, { probe: { ...req, as: 'classic_public' }, control: reached, expected: [403, 404], what: `${line(e, req)} with scopes ${held.join(', ')}` });
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
    run: (t, e, req, again) => acceptsEach(t, e, req, 'versioning.listed-versions', again),
  },
  {
    prefix: 'versioning.media', requirement: 'versioning.media-types', tokens: [], searchFree: false, vendorMediaType: true,
    title: (e) => `${e.method} ${e.path} accepts the recommended and the older media type`,
    // The recommended type is the client's default Accept: the control is sent with it.
    variations: (t) => [{
      what: `accept: ${t.names.mediaTypeV3}`, source: 'Versioning: the recommended media type and the older form',
      change: { headers: { accept: t.names.mediaTypeV3 } },
    }],
    controlForm: (t) => `accept: ${t.names.mediaType}`,
    run: (t, e, req, again) => acceptsEach(t, e, req, 'versioning.media-types', again),
  },
];

function check(rule: Rule, e: Endpoint, how: UnchangingWrite): CheckSpec {
  const identity: TokenName[] = ANONYMOUS.has(e.id) ? [] : ['classic'];
  // A positive rule on search acts as the search caller alone (see SEARCH_CALLER).
  const tokens = rule.variations && e.category === 'search' ? [SEARCH_CALLER] : [...new Set([...identity, ...rule.tokens])];
  return {
    id: `${rule.prefix}.${e.id}`,
    title: rule.title(e),
    requirement: rule.requirement,
    // A write changes nothing, yet it is a write: it runs only where writes are allowed.
    ...changes(e),
    needs: {
      ...(ANONYMOUS.has(e.id) ? { anonymous: true } : {}), ...(tokens.length ? { tokens } : {}), resources: how.needs,
      ...(e.path === '/rate_limit' ? { rateLimiting: true } : {}), ...(rule.vendorMediaType ? { vendorMediaType: true } : {}),
      ...(rule.bearerScheme ? { bearerScheme: true } : {}),
    },
    async run(t) {
      if (e.area === 'imports' && t.writesAllowed) await ensureImport(t);
      const req = await how.request(t);
      try {
        await rule.run(t, e, req, async () => how.again?.(t, req));
      } finally {
        await how.restore?.(t, req);
      }
    },
  };
}

/** Every (rule, endpoint) check the endpoint can be reached for, search ones only where the rule costs no search. */
export const CROSS_CUTTING_CHECKS: readonly CheckSpec[] = RULES.flatMap((rule) => CATALOGUE.flatMap((e) => {
  const how = reachForStatus(e);
  const governed = GOVERNS[rule.requirement]?.endpoints.includes(e.id);
  if (!how || !governed || (e.category === 'search' && !rule.searchFree && !rule.variations) || (rule.applies && !rule.applies(e))) return [];
  return [check(rule, e, how)];
}));

export const crossCuttingSuite: Suite = {
  name: 'cross-cutting',
  description: 'Token schemes, invalid credentials, no token, error bodies, API versions and media types, classic tokens and scopes on notifications, on every endpoint reached without a lasting change.',
  independent: true,
  checks: () => [...CROSS_CUTTING_CHECKS],
};
