/**
 * Checks that spend something on purpose run last, so no other check meets the consequence:
 * the lockout (the profile's sacrificial user only) and, when opted in, the anonymous search window.
 */
import { LIMITS } from '../spec/limits.js';
import type { Reply } from '../src/client.js';
import { expectRefusal } from '../src/refusal.js';
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
        let control: Reply | undefined;
        for (let i = 0; i <= LIMITS.search.perMinuteAnonymous; i++) {
          const r = await t.request({ path: `/search/repositories?q=${encodeURIComponent(t.resources.search_keyword ?? 'test')}&per_page=1`, as: null, unpaced: true });
          control ??= r;
          if (r.status === 200) continue;
          // The control is the first search of the window; a 429 here is the answer under test, not a passing throttle.
          const { verdict } = await expectRefusal(t, { probe: r, control, expected: [403], transient: [], what: `request ${i + 1}, past a spent window` });
          if (verdict !== 'refused') return;
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
        // The control of every refusal below: the same request with valid credentials, before any invalid attempt.
        const first = await t.request({ path: '/notifications?per_page=1', as: valid });
        if (first.status === 403) return t.skip('inconclusive', `${user.login} is already locked out (a recent run?); try again later`);
        if (first.status < 200 || first.status > 299) return t.skip('inconclusive', `valid credentials of ${user.login} answered ${first.status} before any invalid attempt`);
        let attempts = 0;
        let status = 0;
        while (attempts < LOCKOUT_ATTEMPT_BOUND) {
          attempts += 1;
          const r = await t.request({ path: '/notifications?per_page=1', as: { raw: basic(user.login, `conformance-wrong-${attempts}`) } });
          status = r.status;
          if (attempts === 1) await expectRefusal(t, { probe: r, control: first, expected: [401], what: 'the first invalid attempt' });
          if (status === 403) break;
          if (status !== 401) return t.skip('inconclusive', `invalid attempt ${attempts} answered ${status}, neither 401 nor the lockout's 403`);
        }
        if (status !== 403) return t.fail(`no lockout after ${attempts} invalid attempts (the spec does not state the threshold; this check gives up at ${LOCKOUT_ATTEMPT_BOUND})`);
        t.info(`locked out after ${attempts} invalid attempts`);
        const after = await t.request({ path: '/notifications?per_page=1', as: valid });
        await expectRefusal(t, { probe: after, control: first, expected: [403], what: 'valid credentials during the lockout' });
      },
    },
  ],
};
