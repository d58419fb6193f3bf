/** Lockout, run last with the profile's sacrificial user only, so no other check is locked out. */
import type { Suite } from '../src/suite.js';

/** How many invalid attempts the check makes before concluding the target never locks out. */
export const LOCKOUT_ATTEMPT_BOUND = 30;
const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

export const lockoutSuite: Suite = {
  name: 'lockout',
  description: 'Repeated invalid attempts lock the sacrificial user out, valid credentials included.',
  checks: (profile) => [
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
