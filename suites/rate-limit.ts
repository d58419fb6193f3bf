/** Rate limit: GET /rate_limit and the categories, counted as the spec states. */
import { CATALOGUE } from '../spec/catalogue.js';
import { GOVERNS } from '../spec/coverage/governs.js';
import { RATE_CATEGORIES } from '../spec/limits.js';
import { LIMITS } from '../spec/limits.js';
import type { Reply } from '../core/client.js';
import type { CheckContext, CheckSpec, Suite } from '../core/suite.js';
import { changes, ensureImport, reachForStatus, REQUESTS, skipWithoutImport } from './requests.js';

interface Status { limit: number; remaining: number; reset: number; used: number }
interface RateLimit { resources: Record<string, Status>; rate?: Status }

/** GET /rate_limit as the check's caller, or anonymously; skips the check when the target has rate limiting off (404 is listed). */
export async function status(t: CheckContext, anonymous = false): Promise<RateLimit | undefined> {
  const r = await t.request({ path: '/rate_limit', ...(anonymous ? { as: null } : {}) });
  if (r.status === 404) return t.skip('inconclusive', 'GET /rate_limit answers 404 (rate limiting is disabled on this target)');
  if (!t.expectStatus(r, [200], 'GET /rate_limit')) return undefined;
  const body = t.body<RateLimit>(r);
  // "`resources` object with members ..." is stated; the deprecated top-level `rate` may be gone.
  if (!body?.resources) {
    t.fail('GET /rate_limit body lacks resources');
    return undefined;
  }
  return body;
}

/**
 * One counter of a category, as an integer; where the answer has none (its requiredness is not
 * shown) the check is left inconclusive, for a count compared with nothing shows nothing.
 */
export function counter(t: CheckContext, s: RateLimit | undefined, category: string, field: keyof Status): number | undefined {
  if (!s) return undefined;
  const v = s.resources[category]?.[field];
  if (Number.isInteger(v)) return v;
  t.inconclusive(`GET /rate_limit has no integer resources.${category}.${field} (${JSON.stringify(v) ?? 'absent'}): nothing to count`);
  return undefined;
}

/**
 * How much one category's `used` grew between two readings, or undefined when it cannot be told:
 * a counter absent, or the window of the first reading over by the second (its `reset` passed, or
 * `used` fell), for a count compared across two windows shows nothing. Both leave the check inconclusive.
 */
export function usedGrowth(t: CheckContext, a: RateLimit | undefined, b: RateLimit | undefined, category: string): number | undefined {
  const [before, after] = [counter(t, a, category, 'used'), counter(t, b, category, 'used')];
  if (before === undefined || after === undefined) return undefined;
  const reset = a!.resources[category]?.reset;
  if (after < before || (Number.isInteger(reset) && reset! <= t.client.now() / 1000)) {
    t.inconclusive(`the ${category} window reset between the two readings of GET /rate_limit (used ${before}, then ${after}): nothing to compare`);
    return undefined;
  }
  return after - before;
}

/**
 * "core (all non-search REST)": one request to each core endpoint, between two readings of core.used
 * (the run is sequential, so nothing else of the run comes between). A write is one that changes
 * nothing (suites/requests.ts); an import endpoint needs an import (started, with writes allowed, as the cross-cutting checks do).
 */
const CORE_COUNTS: CheckSpec[] = CATALOGUE.flatMap((e) => {
  const how = reachForStatus(e);
  if (!how || !GOVERNS['ratelimit.core-non-search']?.endpoints.includes(e.id)) return [];
  return [{
    id: `rate-limit.core-counts.${e.id}`, title: `A request to ${e.method} ${e.path} counts against core ("all non-search REST")`, requirement: 'ratelimit.core-non-search',
    ...changes(e), needs: { tokens: ['classic'], resources: how.needs, rateLimiting: true },
    async run(t) {
      if (e.area === 'imports' && t.writesAllowed) await ensureImport(t);
      const req = await how.request(t);
      const what = `${e.method} ${req.path.split('?')[0]}`;
      const a = await status(t);
      let r: Reply;
      let b: RateLimit | undefined;
      try {
        r = await t.request(req);
        b = await status(t);
      } finally {
        // A write whose change is put back (a subscription deleted, an import cancelled) is put back here.
        await how.restore?.(t, req);
      }
      skipWithoutImport(t, e, r);
      if (r.status !== e.success.status) return t.skip('inconclusive', `${what} answered ${r.status}, not ${e.success.status}`);
      const grown = usedGrowth(t, a, b, 'core');
      // Other traffic of the same user may add more; none at all means the request was not counted.
      if (grown === 0) t.fail(`core.used stayed ${counter(t, a, 'core', 'used')} across ${what}`);
    },
  }];
});

/**
 * "Search has its own limit separate from core", on each search endpoint: one search between two
 * readings of /rate_limit. This suite runs first of all, so its searches are the replies the schema
 * checks read (the client's reuse) and the run spends no search on it.
 */
export const searchCountingSuite: Suite = {
  name: 'search-counting',
  description: 'Each search endpoint counts against search, not core (run first: the schema checks read its searches).',
  checks: () => CATALOGUE.filter((e) => e.category === 'search' && REQUESTS[e.id]).map((e): CheckSpec => ({
    id: `rate-limit.search-separate.${e.id}`, title: `A search on ${e.path} counts against search, not core`, requirement: 'ratelimit.search-separate',
    needs: { tokens: ['classic'], resources: REQUESTS[e.id]!.needs, rateLimiting: true },
    async run(t) {
      const path = await REQUESTS[e.id]!.path(t);
      const a = await status(t);
      const searched = await t.request({ path });
      const b = await status(t);
      if (searched.status !== 200) return t.skip('inconclusive', `GET ${e.path} answered ${searched.status}: no counted search to look for`);
      const [core, search] = [usedGrowth(t, a, b, 'core'), usedGrowth(t, a, b, 'search')];
      if (core !== undefined && core !== 0) t.fail(`core.used grew by ${core} after one search of ${e.path}`);
      if (search !== undefined && search !== 1) t.fail(`search.used grew by ${search}, not 1, after one search of ${e.path}`);
    },
  })),
};

export const rateLimitSuite: Suite = {
  name: 'rate-limit',
  description: 'GET /rate_limit, the separate search category, and what does not count.',
  checks: () => [
    {
      id: 'rate-limit.status-categories', title: 'GET /rate_limit has every category with integer limit/remaining/reset/used, reset in epoch seconds',
      requirement: 'ratelimit.status-categories', needs: { anonymous: true, rateLimiting: true },
      async run(t) {
        const s = await status(t);
        if (!s) return;
        const now = Date.now() / 1000;
        for (const c of RATE_CATEGORIES) {
          const m = s.resources[c];
          if (!m) {
            t.fail(`resources.${c} is missing`);
            continue;
          }
          for (const f of ['limit', 'remaining', 'reset', 'used'] as const) {
            if (m[f] === undefined) t.info(`resources.${c}.${f} absent (requiredness not shown)`);
            else if (!Number.isInteger(m[f])) t.fail(`resources.${c}.${f} is not an integer: ${JSON.stringify(m[f])}`);
          }
          // An epoch in seconds lies near now; one in milliseconds is a thousand times larger.
          if (Number.isInteger(m.reset) && Math.abs(m.reset - now) > 2 * 86_400) t.fail(`resources.${c}.reset ${m.reset} is not a UTC epoch time in seconds near now (${Math.round(now)})`);
        }
      },
    },
    {
      id: 'rate-limit.rate-equals-core', title: 'Top-level rate equals resources.core', requirement: 'ratelimit.rate-equals-core', needs: { anonymous: true, rateLimiting: true },
      async run(t) {
        const s = await status(t);
        if (!s) return;
        const rate = s.rate ?? t.skip('inconclusive', 'GET /rate_limit has no top-level rate (deprecated)');
        // A member absent from either side (requiredness not shown) is not compared.
        const both = (['limit', 'remaining', 'reset', 'used'] as const).filter((f) => rate[f] !== undefined && s.resources.core?.[f] !== undefined);
        if (!both.length) return t.skip('inconclusive', 'rate and resources.core share no member to compare');
        for (const f of both) if (rate[f] !== s.resources.core![f]) t.fail(`rate.${f} is ${rate[f]} but resources.core.${f} is ${s.resources.core![f]}`);
      },
    },
    {
      id: 'rate-limit.endpoint-not-counted', title: 'Calling GET /rate_limit does not change core usage', requirement: 'ratelimit.endpoint-not-counted', needs: { anonymous: true, rateLimiting: true },
      async run(t) {
        const [a, b] = [await status(t), await status(t)];
        const grown = usedGrowth(t, a, b, 'core');
        if (grown !== undefined && grown !== 0) t.fail(`core.used grew by ${grown} across two GET /rate_limit`);
      },
    },
    {
      id: 'rate-limit.search-per-minute', title: 'Search allows 30 requests a minute authenticated and 10 anonymous', requirement: 'ratelimit.search-per-minute', needs: { tokens: ['classic'], rateLimiting: true },
      async run(t) {
        const auth = counter(t, await status(t), 'search', 'limit');
        const anon = counter(t, await status(t, true), 'search', 'limit');
        if (auth !== undefined && auth !== LIMITS.search.perMinuteAuthenticated) t.fail(`authenticated search limit is ${auth}, not ${LIMITS.search.perMinuteAuthenticated}`);
        if (anon !== undefined && anon !== LIMITS.search.perMinuteAnonymous) t.fail(`anonymous search limit is ${anon}, not ${LIMITS.search.perMinuteAnonymous}`);
      },
    },
    {
      id: 'rate-limit.304-not-counted', title: 'A 304 answer to a conditional request leaves core usage unchanged', requirement: 'ratelimit.304-not-counted',
      needs: { tokens: ['classic'], resources: ['public_repo'], rateLimiting: true }, polls: 'events',
      async run(t) {
        const path = `/repos/${t.resources.public_repo}/events?per_page=1`;
        const first = await t.request({ path });
        const etag = first.headers.etag;
        if (!etag) return t.skip('inconclusive', `GET ${path} sent no ETag, so no conditional request can be made`);
        const conditional = { path, headers: { 'if-none-match': etag }, poll: true };
        // Other checks run during the wait: core.used is read after it.
        await t.untilPollable(conditional);
        const before = await status(t);
        const again = await t.request(conditional);
        const after = await status(t);
        if (again.status !== 304) return t.skip('inconclusive', `the conditional request answered ${again.status}, not 304`);
        const grown = usedGrowth(t, before, after, 'core');
        if (grown !== undefined && grown !== 0) t.fail(`core.used grew by ${grown} across a 304`);
      },
    },
    {
      id: 'rate-limit.search-per-minute.basic', title: 'Basic authentication (login and token) gets the authenticated search limit', requirement: 'ratelimit.search-per-minute',
      needs: { tokens: ['classic'], rateLimiting: true },
      async run(t) {
        const login = t.profile.tokens?.classic?.login;
        if (!login) return t.skip('missing-resource', "the profile does not name the classic token's login (tokens.classic.login)");
        const bearer = await status(t);
        if (bearer?.resources.search?.limit !== LIMITS.search.perMinuteAuthenticated) return t.skip('inconclusive', `the classic token's own search limit is ${bearer?.resources.search?.limit}`);
        const raw = `Basic ${Buffer.from(`${login}:${t.client.tokenValue('classic')}`).toString('base64')}`;
        const r = await t.request({ path: '/rate_limit', as: { raw } });
        if (r.status !== 200) return t.skip('inconclusive', `GET /rate_limit with Basic ${login}:<token> answered ${r.status}`);
        const limit = (t.body<RateLimit>(r))?.resources?.search?.limit;
        if (limit !== LIMITS.search.perMinuteAuthenticated) t.fail(`with Basic ${login}:<token> the search limit is ${limit}, not ${LIMITS.search.perMinuteAuthenticated}`);
      },
    },
    {
      id: 'rate-limit.search-per-minute.oauth', title: 'An OAuth app token gets the authenticated search limit', requirement: 'ratelimit.search-per-minute',
      needs: { tokens: ['oauth'], rateLimiting: true },
      async run(t) {
        const r = await t.request({ path: '/rate_limit', as: 'oauth' });
        if (r.status !== 200) return t.skip('inconclusive', `GET /rate_limit with the OAuth app token answered ${r.status}`);
        const limit = t.body<RateLimit>(r)?.resources?.search?.limit;
        if (limit !== LIMITS.search.perMinuteAuthenticated) t.fail(`with the OAuth app token the search limit is ${limit}, not ${LIMITS.search.perMinuteAuthenticated}`);
      },
    },
    {
      id: 'rate-limit.search-per-minute.client-secret', title: "An OAuth app's client ID and secret get the authenticated search limit", requirement: 'ratelimit.search-per-minute',
      needs: { rateLimiting: true },
      async run(t) {
        const app = t.profile.app_client;
        if (!app) return t.skip('missing-resource', 'the profile names no app_client (an OAuth app\'s client ID and secret)');
        const raw = `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`;
        const r = await t.request({ path: '/rate_limit', as: { raw } });
        if (r.status !== 200) return t.skip('inconclusive', `GET /rate_limit with Basic ${app.client_id}:<client secret> answered ${r.status}`);
        const limit = t.body<RateLimit>(r)?.resources?.search?.limit;
        if (limit !== LIMITS.search.perMinuteAuthenticated) t.fail(`with Basic ${app.client_id}:<client secret> the search limit is ${limit}, not ${LIMITS.search.perMinuteAuthenticated}`);
      },
    },
    {
      id: 'rate-limit.authenticated-higher', title: 'Authenticated requests get a higher core and search limit than anonymous ones', requirement: 'ratelimit.authenticated-higher',
      needs: { tokens: ['classic'], rateLimiting: true },
      async run(t) {
        const [auth, anon] = [await status(t), await status(t, true)];
        for (const c of ['core', 'search'] as const) {
          const [a, n] = [counter(t, auth, c, 'limit'), counter(t, anon, c, 'limit')];
          if (a !== undefined && n !== undefined && !(a > n)) t.fail(`resources.${c}.limit is ${a} authenticated and ${n} anonymous: not higher`);
        }
      },
    },
    {
      id: 'rate-limit.app-tokens', title: 'GET /rate_limit works with app tokens', requirement: 'ratelimit.app-tokens', needs: { tokens: ['classic'], rateLimiting: true },
      async run(t) {
        const apps = (['app_installation', 'app_user'] as const).filter((n) => t.profile.tokens?.[n]);
        if (!apps.length) return t.skip('missing-token', 'the profile names no app_installation or app_user token');
        await status(t); // the control: the classic token's answer (a 404 means rate limiting is off, and the check is skipped)
        for (const as of apps) t.expectStatus(await t.request({ path: '/rate_limit', as }), [200], `GET /rate_limit with the ${as} token`);
      },
    },
    ...CORE_COUNTS,
  ],
};
