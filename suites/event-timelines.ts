/**
 * Rules that govern every event timeline, checked on each of the nine (not on one representative):
 * the page cap, X-Poll-Interval, If-None-Match; and the "public only" rows, each against a control
 * showing the caller can see a private event the timeline must leave out.
 */
import { LIMITS } from '../spec/limits.js';
import type { Reply } from '../core/client.js';
import type { TokenName } from '../core/profile.js';
import type { CheckContext, CheckSpec } from '../core/suite.js';
import { link, linkPath } from './links.js';
import { notModified } from './not-modified.js';

interface EventBody { public: boolean; repo?: { name?: string } }
type Needs = NonNullable<CheckSpec['needs']>;

export interface Timeline {
  /** Suffix of the catalogue id (events.<name>). */
  name: string;
  needs: Needs;
  path(t: CheckContext, login: string): string;
}

const withOrg: Needs = { tokens: ['classic'], resources: ['org'] };
const withRepo: Needs = { tokens: ['classic'], resources: ['public_repo'] };
const classic: Needs = { tokens: ['classic'] };

export const TIMELINES: readonly Timeline[] = [
  { name: 'public', needs: classic, path: () => '/events' },
  { name: 'network', needs: withRepo, path: (t) => `/networks/${t.resources.public_repo}/events` },
  { name: 'org', needs: withOrg, path: (t) => `/orgs/${t.resources.org}/events` },
  { name: 'repo', needs: withRepo, path: (t) => `/repos/${t.resources.public_repo}/events` },
  { name: 'user', needs: classic, path: (_, u) => `/users/${u}/events` },
  { name: 'user-org', needs: withOrg, path: (t, u) => `/users/${u}/events/orgs/${t.resources.org}` },
  { name: 'user-public', needs: classic, path: (_, u) => `/users/${u}/events/public` },
  { name: 'received', needs: classic, path: (_, u) => `/users/${u}/received_events` },
  { name: 'received-public', needs: classic, path: (_, u) => `/users/${u}/received_events/public` },
];

/** The classic token's login; timelines of a user are read as that user. */
export function login(t: CheckContext): string {
  const user = t.profile.tokens?.classic?.login;
  if (!user) return t.skip('missing-resource', "the profile does not name the classic token's login (tokens.classic.login)");
  return user;
}

async function list(t: CheckContext, path: string, as?: TokenName | null): Promise<{ reply: Reply; items: EventBody[] } | undefined> {
  const reply = await t.request({ path, ...(as !== undefined ? { as } : {}) });
  if (reply.status !== 200) return undefined;
  const items = reply.json;
  return Array.isArray(items) ? { reply, items: items as EventBody[] } : undefined;
}

const privateOnes = (items: EventBody[]) => items.filter((e) => e.public === false);

function perTimeline(tl: Timeline): CheckSpec[] {
  const where = (t: CheckContext) => tl.path(t, login(t));
  return [
    {
      id: `events.paging.${tl.name}`, title: `GET events.${tl.name} honours per_page and page`, requirement: 'events.paging', needs: tl.needs,
      async run(t) {
        const path = where(t);
        const SIZE = 5;
        const [first, second] = [await list(t, `${path}?per_page=${SIZE}&page=1`), await list(t, `${path}?per_page=${SIZE}&page=2`)];
        if (!first || !second) return t.skip('inconclusive', `GET ${path} with per_page and page did not answer 200 with an array`);
        if (first.items.length > SIZE) return t.fail(`GET ${path}?per_page=${SIZE} returned ${first.items.length} events`);
        if (first.items.length < SIZE || !second.items.length) return t.skip('inconclusive', `GET ${path} has no more than ${SIZE} events: pages cannot be told apart`);
        const ids = new Set(first.items.map((e) => (e as { id?: unknown }).id));
        // New events arriving in between shift a few across the boundary; a page 2 made only of page 1 ignored `page`.
        if (second.items.every((e) => ids.has((e as { id?: unknown }).id))) t.fail(`GET ${path}: page 2 repeats page 1 (per_page=${SIZE})`);
      },
    },
    {
      id: `events.per-page-100.${tl.name}`, title: `GET events.${tl.name} holds at most 100 events a page`, requirement: 'events.per-page-100', needs: tl.needs,
      async run(t) {
        const path = where(t);
        const over = await list(t, `${path}?per_page=${LIMITS.events.maxPerPage + 1}`);
        if (!over) return t.skip('inconclusive', `GET ${path}?per_page=101 did not answer 200 with an array`);
        if (over.items.length > LIMITS.events.maxPerPage) return t.fail(`per_page=101 returned ${over.items.length} events`);
        // The cap is observed only when more than 100 events exist: a second page of 100 shows it.
        const second = await list(t, `${path}?per_page=${LIMITS.events.maxPerPage}&page=2`);
        if (!second?.items.length) t.skip('inconclusive', `GET ${path} has no more than 100 events, so the cap cannot be seen`);
      },
    },
    {
      id: `events.poll-interval.${tl.name}`, title: `GET events.${tl.name} carries X-Poll-Interval`, requirement: 'poll.interval-header', needs: tl.needs,
      async run(t) {
        const path = where(t);
        const r = await t.request({ path });
        if (!t.expectStatus(r, [200], `GET ${path}`)) return;
        const v = r.headers['x-poll-interval'];
        if (v === undefined) t.fail(`GET ${path}: no X-Poll-Interval`);
        else if (!/^\d+$/.test(v)) t.fail(`GET ${path}: X-Poll-Interval "${v}" is not a number of seconds`);
      },
    },
  ];
}

/**
 * A "public only" timeline read by a caller who, per `control`, can see private events it must
 * leave out. Without such a control there is nothing to leak and the check is inconclusive.
 */
function publicOnly(id: string, requirement: string, title: string, needs: Needs,
  paths: (t: CheckContext, user: string) => { timeline: string; control: string }): CheckSpec {
  return {
    id, title, requirement, needs,
    async run(t) {
      const { timeline, control } = paths(t, login(t));
      const seen = await list(t, `${control}?per_page=100`);
      if (!seen || !privateOnes(seen.items).length) return t.skip('inconclusive', `GET ${control} shows this caller no private event, so none can leak`);
      const r = await t.request({ path: `${timeline}?per_page=100` });
      if (r.status !== 200) return t.info(`GET ${timeline} answered ${r.status}`);
      const leaked = privateOnes(Array.isArray(r.json) ? (r.json as EventBody[]) : []);
      if (leaked.length) t.fail(`GET ${timeline} lists ${leaked.length} private events, e.g. in ${leaked[0]!.repo?.name ?? 'an unnamed repository'}`);
    },
  };
}

const PUBLIC_ONLY: CheckSpec[] = [
  publicOnly('events.public-only', 'events.public-only', 'GET /events holds public events only', classic,
    (_, u) => ({ timeline: '/events', control: `/users/${u}/events` })),
  publicOnly('events.user-public-only', 'events.user-public-only', '/users/{username}/events/public holds public events only, even for that user', classic,
    (_, u) => ({ timeline: `/users/${u}/events/public`, control: `/users/${u}/events` })),
  publicOnly('events.org-public-only', 'events.org-public-only', '/orgs/{org}/events holds public events only, even for a member', withOrg,
    (t, u) => ({ timeline: `/orgs/${t.resources.org}/events`, control: `/users/${u}/events/orgs/${t.resources.org}` })),
  publicOnly('events.network-public-only', 'events.network-public-only', "A private repository's network events hold public events only, even for a reader", { tokens: ['classic'], resources: ['private_repo'] },
    (t) => ({ timeline: `/networks/${t.resources.private_repo}/events`, control: `/repos/${t.resources.private_repo}/events` })),
];

/**
 * "private events included when authenticated as that user": the user's own private events, as the
 * private repository's timeline shows them, appear in their timeline where its first page reaches.
 */
const USER_PRIVATE_SHOWN: CheckSpec = {
  id: 'events.user-private-shown', title: "A user's private events are included when authenticated as that user", requirement: 'events.user-private-own',
  needs: { tokens: ['classic'], resources: ['private_repo'] },
  async run(t) {
    const user = login(t);
    interface Ev extends EventBody { id: string; created_at: string; actor?: { login?: string } }
    const control = await list(t, `/repos/${t.resources.private_repo}/events?per_page=100`);
    // Timelines may lag ("latency between 30 seconds and 6 hours"): only events older than that are expected everywhere.
    const settled = (control?.reply.headers.date ? Date.parse(control.reply.headers.date) : Date.now()) - 6 * 3_600_000;
    const own = ((control?.items ?? []) as Ev[]).filter((e) => e.public === false && e.actor?.login === user && Date.parse(e.created_at) < settled);
    if (!own.length) return t.skip('inconclusive', `GET /repos/${t.resources.private_repo}/events shows no private event of ${user}`);
    const got = await list(t, `/users/${user}/events?per_page=100`);
    if (!got?.items.length) return t.skip('inconclusive', `GET /users/${user}/events answered no events`);
    const page = got.items as Ev[];
    const oldest = Math.min(...page.map((e) => Date.parse(e.created_at)));
    const ids = new Set(page.map((e) => e.id));
    const missing = own.filter((e) => Date.parse(e.created_at) > oldest && !ids.has(e.id));
    if (missing.length) t.fail(`GET /users/${user}/events as ${user} leaves out ${missing.length} of their private events in ${t.resources.private_repo}, e.g. ${missing[0]!.id} of ${missing[0]!.created_at}`);
  },
};

/** "private ones only for the authenticated user": every other caller (anonymous, other accounts) sees none. */
const RECEIVED_PRIVATE_OWN: CheckSpec = {
  id: 'events.received-private-own', title: "A user's received private events are shown only to that user", requirement: 'events.received-private-own', needs: classic,
  async run(t) {
    const user = login(t);
    const path = `/users/${user}/received_events?per_page=100`;
    const own = await list(t, path);
    if (!own || !privateOnes(own.items).length) return t.skip('inconclusive', `GET ${path} shows ${user} no private event, so none can leak`);
    const others = (['classic_public', 'org_member'] as const).filter((n) => t.profile.tokens?.[n] && t.profile.tokens[n]!.login !== user);
    for (const as of [null, ...others]) {
      const got = await list(t, path, as);
      const leaked = privateOnes(got?.items ?? []);
      if (leaked.length) t.fail(`${leaked.length} private events received by ${user} are shown to ${as ?? 'an anonymous caller'}`);
    }
  },
};

/**
 * One check for all nine: each timeline is read once, then polled with its ETag. X-Poll-Interval
 * must be obeyed, so the polls come after the reads and the whole check waits one interval, not nine.
 * It belongs to the conditional suite, whose other polls wait too.
 */
export const ETAG_304_EVERY_TIMELINE: CheckSpec = {
  id: 'events.etag-304-every-timeline', title: 'Every event timeline answers 304 to its ETag sent back in If-None-Match', requirement: 'cond.etag-304', needs: classic, polls: 'events',
  async run(t) {
    const user = login(t);
    const usable = TIMELINES.filter((tl) => (tl.needs.resources ?? []).every((r) => t.resources[r] !== undefined));
    const read: { path: string; reply: Reply }[] = [];
    for (const tl of usable) {
      const path = tl.path(t, user);
      const r = await t.request({ path });
      if (r.status !== 200) t.info(`GET ${path} answered ${r.status}; not polled`);
      else if (!r.headers.etag) t.fail(`GET ${path}: no ETag`);
      else read.push({ path, reply: r });
    }
    if (!read.length) return t.skip('inconclusive', 'no timeline answered 200');
    let changed = 0;
    for (const { path, reply } of read) {
      // The sweep's same conditional request (suites/polling-sweep.ts) is taken as it is: no second interval.
      const judged = notModified(path, 'etag', reply, await t.request({ path, headers: { 'if-none-match': reply.headers.etag! }, poll: true, reuse: true }));
      // A busy timeline may have changed in between: noted, and the others still judged.
      if (judged && 'failure' in judged) t.fail(judged.failure);
      else if (judged) {
        changed += 1;
        t.info(judged.changed);
      }
    }
    if (changed === read.length && !t.failures.length) t.skip('inconclusive', 'every timeline changed between the polls');
  },
};

/** "the quotes around the value are required", on every timeline. */
const ETAG_QUOTED: CheckSpec = {
  id: 'events.etag-quoted-every-timeline', title: 'Every event timeline sends a quoted ETag', requirement: 'cond.etag-quoted', needs: classic,
  async run(t) {
    const user = login(t);
    let seen = 0;
    for (const tl of TIMELINES.filter((x) => (x.needs.resources ?? []).every((r) => t.resources[r] !== undefined))) {
      const path = tl.path(t, user);
      const r = await t.request({ path });
      if (r.status !== 200) continue;
      seen += 1;
      const etag = r.headers.etag;
      if (!etag) t.fail(`GET ${path}: no ETag`);
      else if (!/^(W\/)?"[^"]*"$/.test(etag)) t.fail(`GET ${path}: ETag ${etag} is not a quoted value`);
    }
    if (!seen) t.skip('inconclusive', 'no timeline answered 200');
  },
};

/**
 * "Anonymous requests work for public data": every timeline of public events answers an anonymous
 * caller (another user's organization dashboard is the one timeline closed to them).
 */
const ANONYMOUS: CheckSpec = {
  id: 'events.anonymous-public-data', title: 'Timelines of public events answer anonymous callers', requirement: 'auth.anonymous-public-data', needs: classic,
  async run(t) {
    const user = login(t);
    for (const tl of TIMELINES.filter((x) => x.name !== 'user-org' && (x.needs.resources ?? []).every((r) => t.resources[r] !== undefined))) {
      const path = tl.path(t, user);
      t.expectStatus(await t.request({ path: `${path}?per_page=1`, as: null }), [200], `anonymous GET ${path}`);
    }
  },
};

/** Pages a checker reads to reach the end of a timeline; a longer one is inconclusive. */
const AGE_PAGES = 5;
const DAY = 86_400_000;
/** Clock skew tolerated between the Date header and event timestamps. */
const SKEW_MS = 60_000;

/** The page number of a Link relation (e.g. rel="last"), read from its URL (which must stay on the API). */
function linkedPage(t: CheckContext, reply: Reply, rel: string): number | undefined {
  const url = link(reply, rel);
  const path = url === undefined ? undefined : linkPath(t, url);
  const page = path === undefined ? Number.NaN : Number(new URLSearchParams(path.split('?')[1] ?? '').get('page'));
  return Number.isInteger(page) && page > 0 ? page : undefined;
}

/**
 * "Timelines contain only events from the past 90 days", on each timeline: read to its end, judged by
 * the server's Date. A timeline longer than a few pages is read at its first page and then at the
 * last page its Link header names, where a newest-first timeline keeps its oldest events.
 */
const ageCheck = (tl: Timeline): CheckSpec => ({
  id: `events.age-90-days.${tl.name}`, title: `GET events.${tl.name} holds only events of the past 90 days`, requirement: 'events.age-90-days', needs: tl.needs,
  async run(t) {
    const path = tl.path(t, login(t));
    let page = 1;
    for (let read = 0; read < AGE_PAGES; read++) {
      const got = await list(t, `${path}?per_page=${LIMITS.events.maxPerPage}&page=${page}`);
      if (!got) return t.skip('inconclusive', `GET ${path} page ${page} did not answer 200 with an array`);
      const now = got.reply.headers.date ? Date.parse(got.reply.headers.date) : Date.now();
      const oldest = now - LIMITS.events.maxAgeDays * DAY - SKEW_MS;
      const old = (got.items as { created_at?: string }[]).filter((e) => Date.parse(String(e.created_at)) < oldest);
      if (old.length) return t.fail(`GET ${path} page ${page} holds ${old.length} events older than 90 days, e.g. created_at ${old[0]!.created_at}`);
      if (got.items.length < LIMITS.events.maxPerPage) return;
      page = Math.max(page + 1, linkedPage(t, got.reply, 'last') ?? 0);
    }
    t.skip('inconclusive', `GET ${path} goes on past ${AGE_PAGES} pages of 100 and names no last page; its oldest events were not reached`);
  },
});

/** "the user's organization dashboard; only the authenticated user": not an anonymous caller either. */
const USER_ORG_ANONYMOUS: CheckSpec = {
  id: 'events.user-org-own.anonymous', title: "A user's organization dashboard is refused to anonymous callers", requirement: 'events.user-org-own', needs: withOrg,
  async run(t) {
    const path = `/users/${login(t)}/events/orgs/${t.resources.org}`;
    const own = await t.request({ path });
    if (own.status !== 200) return t.skip('inconclusive', `GET ${path} as that user answered ${own.status}`);
    const r = await t.request({ path, as: null });
    if (r.status < 400 || r.status > 499) t.fail(`anonymous GET ${path} answered ${r.status}`);
  },
};

/** "404 | Resource not found", listed for network events: a repository that does not exist has no network. */
const UNKNOWN_NETWORK: CheckSpec = {
  id: 'events.network-unknown-404', title: 'The network events of a repository that does not exist answer 404', requirement: 'errors.not-found', needs: withRepo,
  async run(t) {
    const owner = t.resources.public_repo!.split('/')[0];
    const known = await t.request({ path: `/networks/${t.resources.public_repo}/events?per_page=1` });
    if (known.status !== 200) return t.skip('inconclusive', `the control, GET /networks/${t.resources.public_repo}/events, answered ${known.status}`);
    const path = `/networks/${owner}/conformance-no-such-repository/events`;
    t.expectStatus(await t.request({ path }), [404], `GET ${path}`);
  },
};

/** "Without a token … the answer is 404 or 403": a private repository's network, with a reader's 200 as the control. */
const PRIVATE_NETWORK: CheckSpec = {
  id: 'auth.no-token-404-or-403.network', title: "A private repository's network events answer 404 or 403 without a token", requirement: 'auth.no-token-404-or-403',
  needs: { tokens: ['classic'], resources: ['private_repo'] },
  async run(t) {
    const path = `/networks/${t.resources.private_repo}/events`;
    const reader = await t.request({ path });
    if (reader.status !== 200) return t.skip('inconclusive', `GET ${path} as the classic token answered ${reader.status}, so the network is not shown to exist`);
    t.expectStatus(await t.request({ path, as: null }), [403, 404], `GET ${path} without a token`);
  },
};

export const timelineChecks = (): CheckSpec[] => [
  ...TIMELINES.flatMap(perTimeline), ...TIMELINES.map(ageCheck), ETAG_QUOTED, ANONYMOUS, ...PUBLIC_ONLY, RECEIVED_PRIVATE_OWN, USER_PRIVATE_SHOWN, USER_ORG_ANONYMOUS, PRIVATE_NETWORK, UNKNOWN_NETWORK,
];
