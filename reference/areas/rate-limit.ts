/** Document 1, "Rate limit": GET /rate_limit answers from the same counters that set the headers. */
import type { AreaModule } from '../area.js';
import { error, json } from '../http.js';

export const rateLimitArea: AreaModule<Record<string, never>> = {
  area: 'rate-limit',
  faults: [
    { id: 'ratelimit-rate-differs', requirement: 'ratelimit.rate-equals-core', effect: '`rate` reports one more request used than `core`.' },
    { id: 'ratelimit-missing-category', requirement: 'ratelimit.status-categories', effect: '`resources` lacks `code_scanning_upload`.' },
    { id: 'ratelimit-app-tokens-refused', requirement: 'ratelimit.app-tokens', effect: 'GET /rate_limit answers 403 to app installation and app user tokens.' },
    { id: 'ratelimit-reset-in-ms', requirement: 'ratelimit.status-categories', effect: '`reset` is given in milliseconds, not seconds.' },
  ],
  createState: () => ({}),
  handlers: {
    'rate-limit.get': (ctx) => {
      const kind = ctx.caller.token?.kind;
      if ((kind === 'app-installation' || kind === 'app-user') && ctx.fault('ratelimit-app-tokens-refused')) return error(403, 'Resource not accessible by integration');
      const authenticated = ctx.caller.token !== null;
      const resources: Record<string, { limit: number; remaining: number; reset: number; used: number }> =
        ctx.state.rateLimiter.all(ctx.caller.rateKey, authenticated);
      if (ctx.fault('ratelimit-reset-in-ms')) for (const r of Object.values(resources)) r.reset *= 1000;
      if (ctx.fault('ratelimit-missing-category')) delete resources.code_scanning_upload;
      const core = resources.core!;
      const rate = ctx.fault('ratelimit-rate-differs') ? { ...core, used: core.used + 1, remaining: core.remaining - 1 } : { ...core };
      return json(200, { resources, rate });
    },
  },
};
