/** Rate limit: GET /rate_limit and the categories, counted as the spec states. */
import { RATE_CATEGORIES } from '../spec/limits.js';
import { LIMITS } from '../spec/limits.js';
import type { CheckContext, Suite } from '../src/suite.js';

interface Status { limit: number; remaining: number; reset: number; used: number }
interface RateLimit { resources: Record<string, Status>; rate?: Status }

/** GET /rate_limit as the check's caller, or anonymously; skips the check when the target has rate limiting off (404 is listed). */
async function status(t: CheckContext, anonymous = false): Promise<RateLimit | undefined> {
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
        for (const f of ['limit', 'remaining', 'reset', 'used'] as const) {
          if (rate[f] !== s.resources.core?.[f]) t.fail(`rate.${f} is ${rate[f]} but resources.core.${f} is ${s.resources.core?.[f]}`);
        }
      },
    },
    {
      id: 'rate-limit.endpoint-not-counted', title: 'Calling GET /rate_limit does not change core usage', requirement: 'ratelimit.endpoint-not-counted', needs: { anonymous: true, rateLimiting: true },
      async run(t) {
        const a = await status(t);
        const b = await status(t);
        if (a && b && b.resources.core!.used !== a.resources.core!.used) t.fail(`core.used went from ${a.resources.core!.used} to ${b.resources.core!.used} across two GET /rate_limit`);
      },
    },
    {
      id: 'rate-limit.core-counted', title: 'A non-search REST request counts against core', requirement: 'ratelimit.status-categories',
      needs: { tokens: ['classic'], resources: ['public_repo'], rateLimiting: true },
      async run(t) {
        const before = await status(t);
        const path = `/repos/${t.resources.public_repo}/events?per_page=1`;
        const r = await t.request({ path });
        const after = await status(t);
        if (r.status !== 200) return t.skip('inconclusive', `GET ${path} answered ${r.status}`);
        // Other clients of the same account may count too: only "unchanged" is a failure.
        if (before && after && after.resources.core!.used <= before.resources.core!.used) {
          t.fail(`core.used stayed ${before.resources.core!.used} across GET ${path}, which "core (all non-search REST)" counts`);
        }
      },
    },
    {
      id: 'rate-limit.app-tokens', title: 'GET /rate_limit answers app installation and app user tokens', requirement: 'ratelimit.app-tokens',
      needs: { tokens: ['app_installation', 'app_user'], rateLimiting: true },
      async run(t) {
        for (const as of ['app_installation', 'app_user'] as const) t.expectStatus(await t.request({ path: '/rate_limit', as }), [200], `GET /rate_limit as the ${as} token`);
      },
    },
    {
      id: 'rate-limit.search-separate', title: 'A search request counts against search, not core', requirement: 'ratelimit.search-separate', needs: { tokens: ['classic'], rateLimiting: true },
      async run(t) {
        const a = await status(t);
        await t.request({ path: `/search/repositories?q=${encodeURIComponent(t.resources.search_keyword ?? 'test')}&per_page=1` });
        const b = await status(t);
        if (!a || !b) return;
        if (b.resources.core!.used !== a.resources.core!.used) t.fail(`core.used changed from ${a.resources.core!.used} to ${b.resources.core!.used} after one search`);
        if (b.resources.search!.used !== a.resources.search!.used + 1) t.fail(`search.used went from ${a.resources.search!.used} to ${b.resources.search!.used} after one search`);
      },
    },
    {
      id: 'rate-limit.search-per-minute', title: 'Search allows 30 requests a minute authenticated and 10 anonymous', requirement: 'ratelimit.search-per-minute', needs: { tokens: ['classic'], rateLimiting: true },
      async run(t) {
        const auth = await status(t);
        const anon = await status(t, true);
        if (auth && auth.resources.search!.limit !== LIMITS.search.perMinuteAuthenticated) t.fail(`authenticated search limit is ${auth.resources.search!.limit}, not ${LIMITS.search.perMinuteAuthenticated}`);
        if (anon && anon.resources.search!.limit !== LIMITS.search.perMinuteAnonymous) t.fail(`anonymous search limit is ${anon.resources.search!.limit}, not ${LIMITS.search.perMinuteAnonymous}`);
      },
    },
    {
      id: 'rate-limit.304-not-counted', title: 'A 304 answer to a conditional request leaves core usage unchanged', requirement: 'ratelimit.304-not-counted',
      needs: { tokens: ['classic'], resources: ['public_repo'], rateLimiting: true },
      async run(t) {
        const path = `/repos/${t.resources.public_repo}/events?per_page=1`;
        const first = await t.request({ path });
        const etag = first.headers.etag;
        if (!etag) return t.skip('inconclusive', `GET ${path} sent no ETag, so no conditional request can be made`);
        const before = await status(t);
        const again = await t.request({ path, headers: { 'if-none-match': etag }, poll: true });
        const after = await status(t);
        if (again.status !== 304) return t.skip('inconclusive', `the conditional request answered ${again.status}, not 304`);
        if (before && after && after.resources.core!.used !== before.resources.core!.used) t.fail(`core.used went from ${before.resources.core!.used} to ${after.resources.core!.used} across a 304`);
      },
    },
  ],
};
