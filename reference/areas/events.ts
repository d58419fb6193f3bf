/**
 * Document 1, Events: nine read-only timelines over a fixed corpus placed relative to the server's
 * start, so the 90-day window and the five-minute delay of /events are observable.
 */
import { LIMITS } from '../../spec/limits.js';
import type { AreaInit, AreaModule } from '../area.js';
import type { Fault } from '../fault.js';
import { canRead } from '../access.js';
import { error, json, notFound, paginate, timestamp, type HandlerContext, type HandlerResult } from '../http.js';
import { renderUser } from '../render.js';
import type { Repo, World } from '../world.js';

const DAY = 86_400_000;
const MINUTE = 60_000;
/** Enough for every timeline of the classic user to fill more than one page of 100 within 90 days. */
const EVENT_COUNT = 2400;
/** The nine timelines, by the suffix of their catalogue id: per-timeline faults are named after it. */
const TIMELINES = ['public', 'network', 'org', 'repo', 'user', 'user-org', 'user-public', 'received', 'received-public'] as const;
const slug = (ctx: HandlerContext) => ctx.endpoint.id.slice('events.'.length);

interface StoredEvent {
  id: number;
  type: 'WatchEvent' | 'PushEvent' | 'CreateEvent';
  actor: string;
  repo: Repo;
  createdAt: number;
  public: boolean;
}

export interface EventsState {
  events: StoredEvent[];
  /** login → logins they follow (received events include those users' events). */
  follows: Map<string, string[]>;
}

function createState(init: AreaInit): EventsState {
  const { world } = init;
  const actors = [...world.users.keys()].filter((l) => l !== 'locksmith');
  const repos = world.liveRepos();
  const types = ['PushEvent', 'WatchEvent', 'CreateEvent'] as const;
  const events: StoredEvent[] = [];
  for (let i = 0; i < EVENT_COUNT; i++) {
    // The two newest are younger than the public delay; the span reaches past 90 days.
    const age = i < 2 ? (i + 1) * MINUTE : i * 3_600_000 + 7 * MINUTE;
    // Each actor meets every repository in turn (a block of actors per repository).
    const repo = repos[Math.floor(i / actors.length) % repos.length]!;
    events.push({
      id: 40_000_000_000 + EVENT_COUNT - i, type: types[i % types.length]!, actor: actors[i % actors.length]!, repo,
      createdAt: init.startedAt - age, public: !repo.private,
    });
  }
  return { events, follows: new Map([['mona', ['hubot', 'grace']], ['ada', ['mona']], ['hubot', ['linus']]]) };
}

function payload(e: StoredEvent, ctx: HandlerContext): Record<string, unknown> {
  const repoUrl = `${ctx.apiBase}/repos/${e.repo.owner}/${e.repo.name}`;
  const sha = (n: number) => (e.id * 7919 + n).toString(16).padStart(40, '0').slice(-40);
  switch (e.type) {
    case 'WatchEvent':
      return { action: 'started' };
    case 'CreateEvent':
      return e.id % 2
        ? { ref: `feature-${e.id % 97}`, ref_type: 'branch', master_branch: 'main', description: e.repo.description, pusher_type: 'user' }
        : { ref: null, ref_type: 'repository', master_branch: 'main', description: null, pusher_type: 'user' };
    case 'PushEvent': {
      const size = (e.id % 3) + 1;
      const user = ctx.state.world.users.get(e.actor)!;
      const commits = Array.from({ length: size }, (_, n) => ({
        sha: sha(n), author: { email: `${user.login}@users.example.invalid`, name: user.login },
        message: `Update widgets (${n + 1}/${size})`, distinct: true, url: `${repoUrl}/commits/${sha(n)}`,
      }));
      const pushSize = ctx.fault('events-push-size-string') ? String(size) : size;
      return { push_id: e.id % 1_000_000_007, size: pushSize, distinct_size: size, ref: 'refs/heads/main', head: sha(size - 1), before: sha(99), commits };
    }
  }
}

function render(e: StoredEvent, ctx: HandlerContext): Record<string, unknown> {
  const actor = renderUser(ctx, ctx.state.world.users.get(e.actor)!);
  const org = ctx.state.world.orgs.get(e.repo.owner);
  return {
    id: String(e.id),
    type: e.type,
    actor: { id: actor.id, login: actor.login, display_login: actor.login, gravatar_id: '', url: actor.url, avatar_url: actor.avatar_url },
    repo: { id: e.repo.id, name: `${e.repo.owner}/${e.repo.name}`, url: `${ctx.apiBase}/repos/${e.repo.owner}/${e.repo.name}` },
    payload: payload(e, ctx),
    public: ctx.fault('schema-event-public-string') ? String(e.public) : e.public,
    created_at: timestamp(e.createdAt),
    ...(org ? { org: { id: org.id, login: org.login, gravatar_id: '', url: `${ctx.apiBase}/orgs/${org.login}`, avatar_url: `${ctx.webBase}/avatars/${org.login}` } } : {}),
  };
}

interface Selection {
  where: (e: StoredEvent) => boolean;
  /** Whether private events the caller can read are included. */
  includePrivate: boolean;
  /** /events leaves out the newest five minutes. */
  delayed?: boolean;
}

/** Filters, orders newest first, pages, and sets X-Poll-Interval: the same for all nine timelines. */
function timeline(ctx: HandlerContext, sel: Selection): HandlerResult {
  if (!ctx.caller.token && ctx.fault(`events-${slug(ctx)}-anonymous-refused`)) return error(401, 'Requires authentication');
  const now = ctx.now();
  const aged = ctx.fault('events-older-than-90-days') || ctx.fault(`events-${slug(ctx)}-older-than-90-days`);
  const oldest = aged ? Number.NEGATIVE_INFINITY : now - LIMITS.events.maxAgeDays * DAY;
  const newest = sel.delayed && !ctx.fault('events-public-not-delayed') ? now - LIMITS.events.publicDelayMinutes * MINUTE : now;
  const includePrivate = sel.includePrivate || ctx.fault('events-private-leak') || ctx.fault(`events-${slug(ctx)}-private`);
  const visible = ctx.state.events.events.filter((e) =>
    e.createdAt >= oldest && e.createdAt <= newest && sel.where(e)
    && (e.public || (includePrivate && (ctx.fault('events-private-leak') || canRead(ctx.state.world, ctx.caller, e.repo)))));
  visible.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  const uncapped = ctx.fault('events-per-page-uncapped') || ctx.fault(`events-${slug(ctx)}-per-page-uncapped`);
  const max = uncapped ? Number.MAX_SAFE_INTEGER : ctx.endpoint.perPage!.max;
  const page = paginate(pagingFaults(ctx), visible, { max, default: 30 });
  const headers: Record<string, string> = { ...page.headers };
  if (!ctx.fault('events-no-poll-interval') && !ctx.fault(`events-${slug(ctx)}-no-poll-interval`)) headers['X-Poll-Interval'] = String(ctx.state.pollIntervalSeconds);
  return json(200, page.items.map((e) => render(e, ctx)), headers);
}

/** The paging faults: a timeline that ignores `page` (always the first) or `per_page` (always the default). */
function pagingFaults(ctx: HandlerContext): HandlerContext {
  const ignored = ['page', 'per_page'].filter((p) => ctx.fault(`events-${slug(ctx)}-${p.replace('_', '-')}-ignored`));
  if (!ignored.length) return ctx;
  const query = new URLSearchParams(ctx.query);
  for (const p of ignored) query.delete(p);
  return { ...ctx, query };
}

function liveRepo(world: World, owner: string, name: string): Repo | undefined {
  const repo = world.repo(owner, name);
  return repo && !repo.movedTo ? repo : undefined;
}

const isSelf = (ctx: HandlerContext) => ctx.caller.login === ctx.params.username;

export const eventsArea: AreaModule<EventsState> = {
  area: 'events',
  faults: [
    { id: 'events-older-than-90-days', requirement: 'events.age-90-days', effect: 'Timelines include events older than 90 days.' },
    { id: 'events-public-not-delayed', requirement: 'events.public-delay', effect: '/events includes events younger than five minutes.' },
    { id: 'events-network-no-redirect', requirement: 'events.network-301', effect: 'A moved repository network answers 200 under its old name instead of 301.' },
    { id: 'events-private-leak', requirement: 'events.user-private-own', effect: "Private events appear to callers other than the user (anonymous included)." },
    { id: 'events-user-org-anonymous-open', requirement: 'events.user-org-own', effect: "Anonymous callers may read a user's organization dashboard (other users may not)." },
    { id: 'events-network-unknown-empty', requirement: 'errors.not-found', effect: 'The network events of a repository that does not exist answer 200 with an empty list.' },
    { id: 'events-user-private-hidden', requirement: 'events.user-private-own', effect: '/users/{username}/events leaves out private events even when the user asks.' },
    { id: 'events-user-org-any-user', requirement: 'events.user-org-own', effect: "Anyone may read another user's organization dashboard." },
    { id: 'events-received-public-private', requirement: 'events.received-public-only', effect: '/received_events/public includes private events the caller can read.' },
    { id: 'events-no-poll-interval', requirement: 'poll.interval-header', effect: 'Event timelines carry no X-Poll-Interval.' },
    { id: 'events-per-page-uncapped', requirement: 'events.per-page-100', effect: 'per_page above 100 is served in full.' },
    { id: 'events-push-size-string', requirement: 'events.payload-shapes', effect: 'PushEvent `size` is a string.' },
    { id: 'events-public-private', requirement: 'events.public-only', effect: '/events includes private events the caller can read.' },
    { id: 'events-network-private', requirement: 'events.network-public-only', effect: 'A repository network\'s events include private events the caller can read.' },
    { id: 'events-org-private', requirement: 'events.org-public-only', effect: '/orgs/{org}/events includes private events the caller can read.' },
    { id: 'events-user-public-private', requirement: 'events.user-public-only', effect: '/users/{username}/events/public includes private events when the user asks.' },
    { id: 'events-received-private-others', requirement: 'events.received-private-own', effect: "/users/{username}/received_events includes private events for callers other than that user who can read them." },
    ...TIMELINES.flatMap((t): Fault[] => [
      { id: `events-${t}-per-page-uncapped`, requirement: 'events.per-page-100', effect: `per_page above 100 is served in full on the ${t} timeline.` },
      { id: `events-${t}-no-poll-interval`, requirement: 'poll.interval-header', effect: `The ${t} timeline carries no X-Poll-Interval.` },
      { id: `events-${t}-if-none-match-ignored`, requirement: 'cond.etag-304', effect: `A matching If-None-Match on the ${t} timeline is answered 200, never 304.` },
      { id: `events-${t}-page-ignored`, requirement: 'events.paging', effect: `The ${t} timeline ignores \`page\`: every page is the first.` },
      { id: `events-${t}-per-page-ignored`, requirement: 'events.paging', effect: `The ${t} timeline ignores \`per_page\`: every page holds the default 30.` },
      { id: `events-${t}-etag-unquoted`, requirement: 'cond.etag-quoted', effect: `The ${t} timeline sends its ETag without the required quotes.` },
      { id: `events-${t}-older-than-90-days`, requirement: 'events.age-90-days', effect: `The ${t} timeline includes events older than 90 days.` },
    ]),
    // Only another user's organization dashboard is closed to anonymous callers.
    ...TIMELINES.filter((t) => t !== 'user-org').map((t): Fault => (
      { id: `events-${t}-anonymous-refused`, requirement: 'auth.anonymous-public-data', effect: `The ${t} timeline answers 401 to anonymous callers.` })),
    { id: 'auth-private-network-open', requirement: 'auth.no-token-404-or-403', effect: "A private repository's network events answer 200 to callers who cannot read it.", endpoints: ['events.network'] },
  ],
  createState,
  handlers: {
    'events.public': (ctx) => timeline(ctx, { where: () => true, includePrivate: false, delayed: true }),
    'events.network': (ctx) => {
      const { owner, repo } = ctx.params as { owner: string; repo: string };
      const found = ctx.state.world.repo(owner, repo);
      if (!found && ctx.fault('events-network-unknown-empty')) return json(200, []);
      if (!found || (!canRead(ctx.state.world, ctx.caller, found) && !ctx.fault('auth-private-network-open'))) return notFound();
      if (found.movedTo) {
        const target = ctx.state.world.repo(...(found.movedTo.split('/') as [string, string]))!;
        if (!ctx.fault('events-network-no-redirect')) {
          const url = `${ctx.apiBase}/networks/${found.movedTo}/events`;
          return json(301, { message: 'Moved Permanently', url }, { Location: url });
        }
        return timeline(ctx, { where: (e) => e.repo === target, includePrivate: false });
      }
      return timeline(ctx, { where: (e) => e.repo === found, includePrivate: false });
    },
    'events.org': (ctx) => {
      const org = ctx.state.world.orgs.get(ctx.params.org!);
      if (!org) return notFound();
      return timeline(ctx, { where: (e) => e.repo.owner === org.login, includePrivate: false });
    },
    'events.repo': (ctx) => {
      const repo = liveRepo(ctx.state.world, ctx.params.owner!, ctx.params.repo!);
      if (!repo || (!canRead(ctx.state.world, ctx.caller, repo) && !ctx.fault('auth-private-repo-open'))) return notFound();
      return timeline(ctx, { where: (e) => e.repo === repo, includePrivate: true });
    },
    'events.user': (ctx) => {
      if (!ctx.state.world.users.has(ctx.params.username!)) return notFound();
      return timeline(ctx, { where: (e) => e.actor === ctx.params.username, includePrivate: isSelf(ctx) && !ctx.fault('events-user-private-hidden') });
    },
    'events.user-org': (ctx) => {
      const org = ctx.state.world.orgs.get(ctx.params.org!);
      if (!org || !ctx.state.world.users.has(ctx.params.username!)) return notFound();
      const admitted = isSelf(ctx) || ctx.fault('events-user-org-any-user') || (!ctx.caller.token && ctx.fault('events-user-org-anonymous-open'));
      if (!admitted) {
        return error(404, 'Not Found: only the authenticated user may read their organization dashboard');
      }
      return timeline(ctx, { where: (e) => e.repo.owner === org.login, includePrivate: true });
    },
    'events.user-public': (ctx) => {
      if (!ctx.state.world.users.has(ctx.params.username!)) return notFound();
      return timeline(ctx, { where: (e) => e.actor === ctx.params.username, includePrivate: false });
    },
    'events.received': (ctx) => received(ctx, isSelf(ctx) || ctx.fault('events-received-private-others')),
    'events.received-public': (ctx) => received(ctx, ctx.fault('events-received-public-private')),
  },
};

/** Events of repositories the user watches and of users the user follows. */
function received(ctx: HandlerContext, includePrivate: boolean): HandlerResult {
  const login = ctx.params.username!;
  if (!ctx.state.world.users.has(login)) return notFound();
  const follows = ctx.state.events.follows.get(login) ?? [];
  return timeline(ctx, { where: (e) => e.repo.watchers.includes(login) || follows.includes(e.actor), includePrivate });
}
