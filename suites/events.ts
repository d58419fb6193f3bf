/** Events: the nine timelines' stated rules, read-only. Times are judged by the server's own Date header. */
import { LIMITS } from '../spec/limits.js';
import type { Reply } from '../core/client.js';
import { expectRefusal } from '../core/refusal.js';
import type { CheckContext, CheckSpec, Suite } from '../core/suite.js';
import { timelineChecks } from './event-timelines.js';

interface EventBody { created_at: string; public: boolean }
const DAY = 86_400_000;
/** Clock skew tolerated between the Date header and event timestamps. */
const SKEW_MS = 60_000;

const serverNow = (r: Reply) => (r.headers.date ? Date.parse(r.headers.date) : Date.now());
const login = (t: CheckContext) => t.profile.tokens?.classic?.login;

async function events(t: CheckContext, path: string, as?: 'classic' | 'classic_public' | null): Promise<{ reply: Reply; items: EventBody[] } | undefined> {
  const reply = await t.request({ path, ...(as !== undefined ? { as } : {}) });
  if (!t.expectStatus(reply, [200], `GET ${path}`)) return undefined;
  const items = t.body<EventBody[]>(reply);
  if (!Array.isArray(items)) {
    t.fail(`GET ${path} did not answer an array`);
    return undefined;
  }
  return { reply, items };
}

function check(id: string, title: string, requirement: string, needs: CheckSpec['needs'], run: CheckSpec['run']): CheckSpec {
  return { id, title, requirement, needs, run };
}

export const eventsSuite: Suite = {
  name: 'events',
  description: 'Event timelines: the 90-day window, the public delay, the moved network, private events, page size.',
  independent: true,
  checks: () => [
    check('events.age-90-days', 'Timelines contain only events from the past 90 days', 'events.age-90-days', { tokens: ['classic'], resources: ['public_repo'] }, async (t) => {
      for (let page = 1; page <= 3; page++) {
        const got = await events(t, `/repos/${t.resources.public_repo}/events?per_page=100&page=${page}`);
        if (!got) return;
        if (page === 1 && !got.items.length) return t.skip('inconclusive', `${t.resources.public_repo} has no events: no age to judge`);
        const oldest = serverNow(got.reply) - LIMITS.events.maxAgeDays * DAY - SKEW_MS;
        const dated = got.items.filter((e) => !Number.isNaN(Date.parse(e.created_at)));
        if (page === 1 && !dated.length) return t.skip('inconclusive', `no event of ${t.resources.public_repo} gives a created_at: no age to judge`);
        const old = dated.filter((e) => Date.parse(e.created_at) < oldest);
        if (old.length) return t.fail(`page ${page} holds ${old.length} events older than 90 days, e.g. created_at ${old[0]!.created_at}`);
        if (got.items.length < 100) return;
      }
    }),
    check('events.public-delay', 'GET /events is delayed by five minutes', 'events.public-delay', { anonymous: true }, async (t) => {
      const got = await events(t, '/events?per_page=100');
      if (!got) return;
      if (!got.items.length) return t.skip('inconclusive', 'GET /events listed no event: no delay to judge');
      const newest = serverNow(got.reply) - LIMITS.events.publicDelayMinutes * 60_000 + SKEW_MS;
      const dated = got.items.filter((e) => !Number.isNaN(Date.parse(e.created_at)));
      if (!dated.length) return t.skip('inconclusive', 'no event of GET /events gives a created_at: no delay to judge');
      const fresh = dated.filter((e) => Date.parse(e.created_at) > newest);
      if (fresh.length) t.fail(`${fresh.length} events are younger than five minutes, e.g. created_at ${fresh[0]!.created_at}`);
    }),
    check('events.network-301', 'A moved repository network answers 301', 'events.network-301', { tokens: ['classic'], resources: ['moved_network'] }, async (t) => {
      const { from } = t.resources.moved_network!;
      t.expectStatus(await t.request({ path: `/networks/${from}/events` }), [301], `GET /networks/${from}/events`);
    }),
    check('events.user-private-own', "A user's private events are shown only when authenticated as that user", 'events.user-private-own', { tokens: ['classic'] }, async (t) => {
      const user = login(t);
      if (!user) return t.skip('missing-resource', 'the profile does not name the classic token\'s login (tokens.classic.login)');
      // The control: the user's own view must hold a private event for the others' to hide.
      const own = await t.request({ path: `/users/${user}/events?per_page=100` });
      const mine = Array.isArray(own.json) ? (own.json as EventBody[]) : [];
      if (!mine.some((e) => e.public === false)) return t.skip('inconclusive', `${user}'s own timeline (${own.status}) holds no private event: none to be hidden from others`);
      for (const as of [null, ...(t.profile.tokens?.classic_public ? ['classic_public' as const] : [])]) {
        const got = await events(t, `/users/${user}/events?per_page=100`, as);
        if (got?.items.some((e) => e.public === false)) t.fail(`private events of ${user} are shown to ${as ?? 'an anonymous caller'}`);
      }
    }),
    check('events.user-org-own', "A user's organization dashboard is only for that user", 'events.user-org-own', { tokens: ['classic'], resources: ['org'] }, async (t) => {
      const user = login(t);
      if (!user) return t.skip('missing-resource', 'the profile does not name the classic token\'s login (tokens.classic.login)');
      const path = `/users/${user}/events/orgs/${t.resources.org}`;
      // The control: the user's own token. No refusal status is stated.
      await expectRefusal(t, { probe: { path, as: t.profile.tokens?.classic_public ? 'classic_public' : null }, control: { path }, what: `GET ${path} as another caller` });
    }),
    check('events.received-public-only', 'received_events/public holds public events only', 'events.received-public-only', { tokens: ['classic'] }, async (t) => {
      const user = login(t);
      if (!user) return t.skip('missing-resource', 'the profile does not name the classic token\'s login (tokens.classic.login)');
      const got = await events(t, `/users/${user}/received_events/public?per_page=100`);
      if (got?.items.some((e) => e.public === false)) t.fail('private events are listed');
      else if (got && !got.items.some((e) => e.public === true)) t.skip('inconclusive', `${user} received no event marked public (${got.items.length} listed): nothing to judge`);
    }),
    check('events.per-page-100', 'Event pages hold at most 100 events', 'events.per-page-100', { anonymous: true }, async (t) => {
      const user = login(t);
      const got = await events(t, user ? `/users/${user}/received_events?per_page=101` : '/events?per_page=101');
      if (got && got.items.length > LIMITS.events.maxPerPage) t.fail(`per_page=101 returned ${got.items.length} events`);
      else if (got && got.items.length < LIMITS.events.maxPerPage) t.skip('inconclusive', `per_page=101 listed ${got.items.length} events: fewer than the cap`);
    }),
    ...timelineChecks(),
  ],
};
