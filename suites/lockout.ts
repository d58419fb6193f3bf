/**
 * Checks that spend something on purpose run last, so no other check meets the consequence:
 * the lockout (the profile's sacrificial user only) and, when opted in, the anonymous search window.
 */
import { LIMITS } from '../spec/limits.js';
import type { Suite } from '../src/suite.js';

/** How many invalid attempts the check makes before concluding the target never locks out. */
export const LOCKOUT_ATTEMPT_BOUND = 30;
const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

export const lockoutSuite: Suite = {
  name: 'lockout',
  description: 'Repeated invalid attempts lock the sacrificial user out; a spent search window is refused with 403 (opt-in).',
  checks: (profile) => [
    {
      id: 'rate-limit.exhausted-403', title: 'Past the anonymous search limit, requests are refused with 403 and a message', requirement: 'ratelimit.exhausted-403',
      exhausts: true, needs: { rateLimiting: true },
      async run(t) {
        // One more than the window allows, unpaced: the refusal is what this check wants to see.
        for (let i = 0; i <= LIMITS.search.perMinuteAnonymous; i++) {
          const r = await t.request({ path: `/search/repositories?q=${encodeURIComponent(t.resources.search_keyword ?? 'test')}&per_page=1`, as: null, unpaced: true });
          if (r.status === 200) continue;
          if (r.status !== 403) return t.fail(`request ${i + 1} past a spent window answered ${r.status}, not 403`);
          const message = (r.json as { message?: unknown } | undefined)?.message;
          if (typeof message !== 'string') t.fail('the 403 carries no message');
          return t.info(`refused after ${i} anonymous searches`);
        }
        t.fail(`${LIMITS.search.perMinuteAnonymous + 1} anonymous searches within a minute were all answered 200`);
      },
    },
    {
      id: 'auth.lockout', title: 'After several invalid attempts, valid credentials of that user are refused with 403', requirement: 'auth.lockout-403',
      async run(t) {
        const user = profile.lockout_user;
        if (!user) return t.skip('missing-resource', 'the profile names no lockout_user (a sacrificial account)');
        const valid = { raw: `Bearer ${user.token}` };
        const first = await t.request({ path: '/notifications?per_page=1', as: valid });
        if (first.status === 403) return t.skip('inconclusive', `${user.login} is already locked out (a recent run?); try again later`);
        let attempts = 0;
        let status = 0;
        while (attempts < LOCKOUT_ATTEMPT_BOUND) {
          attempts += 1;
          status = (await t.request({ path: '/notifications?per_page=1', as: { raw: basic(user.login, `conformance-wrong-${attempts}`) } })).status;
          if (attempts === 1 && status !== 401) t.fail(`the first invalid attempt answered ${status}, not 401`);
          if (status === 403) break;
        }
        if (status !== 403) return t.fail(`no lockout after ${attempts} invalid attempts (the spec does not state the threshold; this check gives up at ${LOCKOUT_ATTEMPT_BOUND})`);
        t.info(`locked out after ${attempts} invalid attempts`);
        const after = await t.request({ path: '/notifications?per_page=1', as: valid });
        if (after.status !== 403) t.fail(`valid credentials answered ${after.status} during the lockout, not 403`);
      },
    },
  ],
};
