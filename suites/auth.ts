/** Authentication: token schemes, refused passwords, 401s, 404/403 without access, permissions header, single sign-on, classic-only notifications. */
import type { Reply } from '../core/client.js';
import { NOT_CLASSIC_TOKENS } from '../core/profile.js';
import { expectRefusal, judgeRefusal } from '../core/refusal.js';
import type { CheckContext, Suite } from '../core/suite.js';
import { compareSchemes } from './token-schemes.js';

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
/**
 * The organization's own data that single sign-on guards: its alert listing, its events, and the
 * dashboard of the unauthorized token's user in it (that user's own, so only SSO can refuse it).
 */
function ssoOrgPaths(t: CheckContext): string[] {
  const org = t.resources.sso_org!;
  const user = t.profile.tokens?.sso_unauthorized?.login;
  // The dashboard's control, the classic token, must be the same user's.
  const own = user && user === t.profile.tokens?.classic?.login;
  return [
    `/orgs/${org}/code-scanning/alerts?per_page=1`, `/orgs/${org}/events?per_page=1`,
    ...(own ? [`/users/${user}/events/orgs/${org}?per_page=1`] : []),
  ];
}

/** The control of the token refusals: the classic token, which notifications admit. */
const NOTIFICATIONS = { path: '/notifications?per_page=1' };

export const authSuite: Suite = {
  name: 'auth',
  description: 'How tokens are sent and refused, single sign-on, and which token kinds each interface accepts.',
  checks: () => [
    {
      id: 'auth.bearer-and-token-schemes', title: 'Both "Bearer <TOKEN>" and "token <TOKEN>" are accepted', requirement: 'auth.bearer-and-token-schemes',
      needs: { tokens: ['classic'] },
      async run(t) {
        // The preflight sends the profile's tokens as Bearer and, only where every one was refused, as `token`.
        if (t.client.scheme === 'token') t.fail('before the checks, the target refused every token of the profile sent as "Bearer <TOKEN>" with 401 and accepted them as "token <TOKEN>"');
        await compareSchemes(t, NOTIFICATIONS, 200, 'GET /notifications');
      },
    },
    {
      id: 'auth.password-rejected', title: 'Username and password authentication yields a 4xx', requirement: 'auth.password-rejected',
      needs: { tokens: ['classic'] },
      async run(t) {
        const user = t.profile.password_user;
        if (!user) return t.skip('missing-resource', 'the profile names no password_user (a login with its real password)');
        // "yields a 4xx error": no status is stated.
        await expectRefusal(t, { probe: { ...NOTIFICATIONS, as: { raw: basic(user.login, user.password) } }, control: NOTIFICATIONS, what: `Basic ${user.login}:<password>` });
      },
    },
    {
      id: 'auth.invalid-credentials-401', title: 'Invalid credentials first give 401', requirement: 'auth.invalid-credentials-401', needs: { tokens: ['classic', 'invalid'] },
      async run(t) {
        // /rate_limit answers callers without a token too, so only a 401 there shows the credentials were judged, not ignored.
        for (const path of ['/notifications', '/rate_limit']) {
          await expectRefusal(t, { probe: { path, as: 'invalid' }, control: { path }, expected: [401], what: `GET ${path} with an invalid token` });
        }
      },
    },
    {
      id: 'auth.password-rejected.public-data', title: 'A username and password yield a 4xx on public data too, not an anonymous answer', requirement: 'auth.password-rejected',
      needs: { resources: [] },
      async run(t) {
        const user = t.profile.password_user;
        if (!user) return t.skip('missing-resource', 'the profile names no password_user (a login with its real password)');
        const path = '/events?per_page=1';
        const control = await t.request({ path, as: null });
        if (control.status !== 200) return t.skip('inconclusive', `anonymous GET ${path} answered ${control.status}`);
        const r = await t.request({ path, as: { raw: basic(user.login, user.password) } });
        if (r.status < 400 || r.status > 499) t.fail(`GET ${path} with Basic ${user.login}:<password> answered ${r.status}, not a 4xx (anonymous: 200)`);
      },
    },
    {
      id: 'auth.invalid-credentials-401.public-data', title: 'An invalid token gives 401 on public data too, not an anonymous answer', requirement: 'auth.invalid-credentials-401',
      needs: { tokens: ['invalid'], resources: ['public_repo'] },
      async run(t) {
        for (const path of ['/events?per_page=1', `/repos/${t.resources.public_repo}/events?per_page=1`]) {
          const control = await t.request({ path, as: null });
          if (control.status !== 200) {
            t.info(`anonymous GET ${path} answered ${control.status}; not a control`);
            continue;
          }
          t.expectStatus(await t.request({ path, as: 'invalid' }), [401], `GET ${path} with an invalid token (anonymous: 200)`);
        }
      },
    },
    {
      id: 'errors.message.refusals', title: 'Refusals (401 for invalid credentials, 403 or 404 for missing access) carry a message string', requirement: 'errors.message',
      needs: { tokens: ['invalid'] },
      async run(t) {
        const probes: { path: string; as: Parameters<typeof t.request>[0]['as'] }[] = [{ path: '/events?per_page=1', as: 'invalid' }];
        if (t.resources.sso_org && t.profile.tokens?.sso_unauthorized) probes.push({ path: `/orgs/${t.resources.sso_org}/code-scanning/alerts`, as: 'sso_unauthorized' });
        if (t.resources.private_repo) probes.push({ path: `/repos/${t.resources.private_repo}/events`, as: null });
        let refused = 0;
        for (const { path, as } of probes) {
          // The control: the same read as the profile's caller; a refusal of everything is not the error asked for.
          const control = await t.request({ path, reuse: true });
          const r = await t.request({ path, as });
          if (judgeRefusal(r.status, control.status).verdict !== 'refused') continue;
          refused += 1;
          const message = (r.json as { message?: unknown } | undefined)?.message;
          if (typeof message !== 'string') t.fail(`GET ${path} answered ${r.status} without a message string: ${t.client.excerpt(r.text, 120)}`);
        }
        if (!refused) t.skip('inconclusive', 'no probe was refused while its control succeeded');
      },
    },
    {
      id: 'auth.no-token-404-or-403', title: 'Private data without a token, or without the permission, answers 404 or 403', requirement: 'auth.no-token-404-or-403',
      needs: { tokens: ['classic'], resources: ['private_repo'] },
      async run(t) {
        const path = `/repos/${t.resources.private_repo}/events`;
        // The control: the classic token, which reads the private repository.
        const control = await t.request({ path });
        await expectRefusal(t, { probe: { path, as: null }, control, expected: [403, 404], what: `GET ${path} without a token` });
        if (t.profile.tokens?.classic_public) {
          await expectRefusal(t, { probe: { path, as: 'classic_public' }, control, expected: [403, 404], what: `GET ${path} with the public-only token` });
        }
      },
    },
    {
      id: 'auth.accepted-permissions-header', title: 'X-Accepted-<Vendor>-Permissions names the permission code scanning needs', requirement: 'auth.accepted-permissions-header',
      needs: { tokens: ['fine_grained_bare'], resources: ['public_repo'] },
      async run(t) {
        const r = await t.request({ path: `/repos/${t.resources.public_repo}/code-scanning/alerts`, as: 'fine_grained_bare' });
        const header = r.headers[t.names.acceptedPermissionsHeader.toLowerCase()];
        if (header === undefined) t.fail(`no ${t.names.acceptedPermissionsHeader} header (status ${r.status})`);
        else if (!/security_events/.test(header)) t.fail(`${t.names.acceptedPermissionsHeader} is "${header}", which does not name security_events`);
      },
    },
    {
      id: 'auth.sso-403-header', title: 'A token not authorized for an SSO organization gets 404, or 403 with an SSO URL', requirement: 'auth.sso-403-header',
      needs: { tokens: ['sso_unauthorized'], resources: ['sso_org'] },
      async run(t) {
        for (const path of ssoOrgPaths(t)) {
          // The control: the classic token, authorized for the organization.
          const { verdict, probe: r } = await expectRefusal(t, { probe: { path, as: 'sso_unauthorized' }, control: { path }, expected: [403, 404], what: `GET ${path} as the unauthorized token` });
          if (verdict !== 'refused') continue;
          if (r.status === 404) {
            t.info(`GET ${path} answered 404, which the spec allows; no header is required then`);
            continue;
          }
          const header = r.headers[t.names.ssoHeader.toLowerCase()];
          if (!header || !/https?:\/\/\S+/.test(header)) t.fail(`GET ${path}: the 403 has ${header ? `${t.names.ssoHeader}: ${header}` : `no ${t.names.ssoHeader} header`}, not a URL to authorize the token`);
        }
      },
    },
    {
      id: 'auth.sso-partial-results', title: 'A request spanning an SSO organization omits its results and says partial-results', requirement: 'auth.sso-partial-results',
      needs: { tokens: ['classic', 'sso_unauthorized'], resources: ['sso_org'] },
      async run(t) {
        const org = t.resources.sso_org!;
        type Item = { repository?: { full_name?: string }; repository_url?: string };
        const ofOrg = (i: Item) => (i.repository?.full_name ?? i.repository_url?.split('/repos/')[1] ?? '').startsWith(`${org}/`);
        const probes: [string, (body: unknown) => Item[]][] = [
          ['/notifications?all=true&per_page=50', (b) => (Array.isArray(b) ? b : [])],
          [`/search/issues?q=${encodeURIComponent(t.resources.search_keyword ?? 'test')}&per_page=100`, (b) => (b as { items?: Item[] })?.items ?? []],
        ];
        let spanned = 0;
        for (const [path, items] of probes) {
          // The classic token's view as earlier checks had it: the search costs no search window again.
          if (!items(t.body(await t.request({ path, reuse: true }))).some(ofOrg)) continue;
          spanned += 1;
          const r = await t.request({ path, as: 'sso_unauthorized' });
          if (!t.expectStatus(r, [200], `GET ${path} as the SSO-unauthorized token`)) continue;
          if (items(t.body(r)).some(ofOrg)) t.fail(`GET ${path}: results of ${org} are included for a token not authorized for it`);
          const header = r.headers[t.names.ssoHeader.toLowerCase()] ?? '';
          if (!/^partial-results; organizations=\d+(,\d+)*$/.test(header)) t.fail(`GET ${path}: ${t.names.ssoHeader} is "${header}", not "partial-results; organizations=<id>,<id>"`);
        }
        if (!spanned) return t.skip('inconclusive', `neither notifications nor issue search of the classic token include anything of ${org}`);
      },
    },
    {
      // "Fine-grained tokens are authorized at creation; app tokens are authorized automatically": where single
      // sign-on refuses a classic token never authorized, fine-grained and app user tokens of a member pass.
      id: 'auth.sso-fine-grained-app', title: 'Single sign-on does not refuse fine-grained and app user tokens', requirement: 'auth.sso-fine-grained-app',
      needs: { tokens: ['sso_unauthorized'], resources: ['sso_org'] },
      async run(t) {
        const kinds = (['fine_grained', 'app_user'] as const).filter((n) => t.profile.tokens?.[n]);
        if (!kinds.length) return t.skip('missing-token', 'the profile names no fine_grained or app_user token');
        const sso = (r: Reply) => (r.status === 403 ? r.headers[t.names.ssoHeader.toLowerCase()] : undefined);
        let enforced = 0;
        for (const path of ssoOrgPaths(t)) {
          const classic = await t.request({ path, as: 'sso_unauthorized' });
          if (!sso(classic)) {
            t.info(`GET ${path} with the SSO-unauthorized classic token answered ${classic.status} without ${t.names.ssoHeader}: no enforcement to compare with`);
            continue;
          }
          enforced += 1;
          for (const as of kinds) {
            const r = await t.request({ path, as });
            if (sso(r)) t.fail(`GET ${path} with the ${as} token: 403 for single sign-on (${t.names.ssoHeader}: ${sso(r)})`);
          }
        }
        if (!enforced) t.skip('inconclusive', 'single sign-on refused the unauthorized classic token with its header on none of the organization\'s endpoints');
      },
    },
    {
      id: 'auth.notifications-classic-only', title: 'Notification endpoints refuse tokens other than a classic personal access token', requirement: 'notifications.classic-only',
      needs: { tokens: ['classic'] },
      async run(t) {
        const others = NOT_CLASSIC_TOKENS.filter((n) => t.profile.tokens?.[n]);
        if (!others.length) return t.skip('missing-token', 'the profile names no fine_grained, app_user or app_installation token');
        const control = await t.request(NOTIFICATIONS);
        // No status is stated: the refusals of document 1's Authentication (401, 403, 404).
        for (const as of others) await expectRefusal(t, { probe: { ...NOTIFICATIONS, as }, control, expected: [401, 403, 404], what: `GET /notifications with the ${as} token` });
      },
    },
  ],
};
