/** Document 1, "Rate limit": GET /rate_limit answers from the same counters that set the headers. */
import type { AreaModule } from '../area.js';
import { error, json } from '../http.js';

export const rateLimitArea: AreaModule<Record<string, never>> = {
  area: 'rate-limit',
  faults: [
    { id: 'ratelimit-rate-differs', requirement: 'ratelimit.rate-equals-core', effect: '`rate` reports one more request used than `core`.' },
    { id: 'ratelimit-missing-category', requirement: 'ratelimit.status-categories', effect: '`resources` lacks `code_scanning_upload`.' },
    { id: 'ratelimit-app-token-refused', requirement: 'ratelimit.app-tokens', effect: 'GET /rate_limit answers 403 to app installation and app user tokens.' },
    { id: 'ratelimit-basic-counted-anonymous', requirement: 'ratelimit.search-per-minute', effect: 'GET /rate_limit reports the anonymous limits to requests authenticated with Basic login:token.' },
    { id: 'ratelimit-oauth-counted-anonymous', requirement: 'ratelimit.search-per-minute', effect: 'GET /rate_limit reports the anonymous limits to OAuth app tokens.' },
    { id: 'ratelimit-client-secret-counted-anonymous', requirement: 'ratelimit.search-per-minute', effect: 'Requests authenticated with an OAuth app\'s client ID and secret get the anonymous limits.' },
    { id: 'rate-limit-get-if-none-match-ignored', requirement: 'cond.etag-304', effect: 'A matching If-None-Match on GET /rate_limit is answered 200, never 304.', endpoints: ['rate-limit.get'] },
    { id: 'ratelimit-anonymous-core-equal', requirement: 'ratelimit.authenticated-higher', effect: 'Anonymous callers get the same core limit as authenticated ones.' },
    { id: 'ratelimit-reset-in-ms', requirement: 'ratelimit.status-categories', effect: '`reset` is given in milliseconds, not seconds.' },
  ],
  createState: () => ({}),
  handlers: {
    'rate-limit.get': (ctx) => {
      const kind = ctx.caller.token?.kind;
      if ((kind === 'app-installation' || kind === 'app-user') && ctx.fault('ratelimit-app-token-refused')) return error(403, 'Resource not accessible by integration');
      // "basic, OAuth and client-ID-plus-secret requests count as authenticated for search limits"; each fault reports one of them as anonymous.
      const basic = /^basic /i.test(ctx.headers.authorization ?? '');
      const authenticated = (ctx.caller.token !== null && !(ctx.fault('ratelimit-basic-counted-anonymous') && basic) && !(ctx.fault('ratelimit-oauth-counted-anonymous') && kind === 'oauth'))
        || (ctx.caller.client !== undefined && !ctx.fault('ratelimit-client-secret-counted-anonymous'));
      const resources: Record<string, { limit: number; remaining: number; reset: number; used: number }> =
        ctx.state.rateLimiter.all(ctx.caller.rateKey, authenticated);
      // The fault gives anonymous callers the authenticated core limit.
      if (!authenticated && ctx.fault('ratelimit-anonymous-core-equal')) resources.core!.limit = ctx.state.rateLimiter.all(ctx.caller.rateKey, true).core!.limit;
      if (ctx.fault('ratelimit-reset-in-ms')) for (const r of Object.values(resources)) r.reset *= 1000;
      if (ctx.fault('ratelimit-missing-category')) delete resources.code_scanning_upload;
      const core = resources.core!;
      const rate = ctx.fault('ratelimit-rate-differs') ? { ...core, used: core.used + 1, remaining: core.remaining - 1 } : { ...core };
      return json(200, { resources, rate });
    },
  },
};
