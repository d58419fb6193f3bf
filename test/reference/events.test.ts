/** Document 1, Events, over HTTP: the nine timelines, the 90-day window, the delay, the 301, polling. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../spec/limits.js';
import { call, TOKENS, useReference } from '../helpers/reference.js';
import { describeFaultProbes, type Probe } from '../helpers/faults.js';

const DAY = 86_400_000;
const age = (e: { created_at: string }) => Date.now() - Date.parse(e.created_at);

describe('event timelines', () => {
  const ref = useReference();

  it('serve every timeline newest first with the record fields', async () => {
    for (const path of ['/events', '/networks/acme/widgets/events', '/orgs/acme/events', '/repos/acme/widgets/events', '/users/mona/events',
      '/users/mona/events/orgs/acme', '/users/mona/events/public', '/users/mona/received_events', '/users/mona/received_events/public']) {
      const r = await ref.get(path);
      expect(r.status, path).toBe(200);
      expect(r.body.length, path).toBeGreaterThan(0);
      const times = r.body.map((e: { created_at: string }) => Date.parse(e.created_at));
      expect(times, path).toEqual([...times].sort((a, b) => b - a));
      for (const e of r.body) {
        expect(typeof e.id).toBe('string');
        expect(e.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      }
    }
  });

  it('contain only events from the past 90 days', async () => {
    let all: { created_at: string }[] = [];
    for (let page = 1; page <= 3; page++) all = all.concat((await ref.get(`/repos/acme/widgets/events?per_page=100&page=${page}`)).body);
    expect(all.length).toBeGreaterThan(0);
    expect(Math.max(...all.map(age))).toBeLessThanOrEqual(LIMITS.events.maxAgeDays * DAY);
  });

  it('delay /events by five minutes, while other timelines show the newest', async () => {
    const pub = (await ref.get('/events?per_page=100')).body;
    expect(Math.min(...pub.map(age))).toBeGreaterThanOrEqual(LIMITS.events.publicDelayMinutes * 60_000);
  });

  it('answer 301 for a moved repository network', async () => {
    const r = await ref.get('/networks/acme/old-widgets/events');
    expect(r.status).toBe(301);
    expect(r.headers.location).toMatch(/\/networks\/acme\/widgets\/events$/);
    expect((await ref.get('/networks/acme/nope/events')).status).toBe(404);
  });

  it('show private events only to the user authenticated as that user', async () => {
    const own = (await ref.get('/users/mona/events?per_page=100')).body;
    expect(own.some((e: { public: boolean }) => !e.public)).toBe(true);
    for (const token of [null, TOKENS.classicPublic]) {
      const other = (await ref.get('/users/mona/events?per_page=100', { token })).body;
      expect(other.every((e: { public: boolean }) => e.public)).toBe(true);
    }
    expect((await ref.get('/users/mona/events/orgs/acme', { token: TOKENS.classicPublic })).status).toBe(404);
    const pub = (await ref.get('/users/mona/received_events/public?per_page=100')).body;
    expect(pub.every((e: { public: boolean }) => e.public)).toBe(true);
  });

  it('cap per_page at 100 and link pages', async () => {
    const r = await ref.get('/users/mona/received_events?per_page=500');
    expect(r.body.length).toBeLessThanOrEqual(LIMITS.events.maxPerPage);
    const small = await ref.get('/repos/acme/widgets/events?per_page=2');
    expect(small.headers.link).toMatch(/rel="next"/);
  });

  it('poll with a quoted ETag: 304 without rate-limit cost, X-Poll-Interval present', async () => {
    const first = await ref.get('/repos/acme/widgets/events');
    expect(Number(first.headers['x-poll-interval'])).toBeGreaterThan(0);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await ref.get('/repos/acme/widgets/events', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers['x-ratelimit-remaining']).toBe(first.headers['x-ratelimit-remaining']);
    const unquoted = await ref.get('/repos/acme/widgets/events', { headers: { 'if-none-match': etag.replace(/"/g, '') } });
    expect(unquoted.status).toBe(200);
  });

  it('give payloads the stated shapes', async () => {
    const all = (await ref.get('/repos/acme/widgets/events?per_page=100')).body as { type: string; payload: Record<string, unknown> }[];
    const push = all.find((e) => e.type === 'PushEvent')!;
    for (const f of ['push_id', 'size', 'distinct_size']) expect(Number.isInteger(push.payload[f]), f).toBe(true);
    expect(all.find((e) => e.type === 'WatchEvent')!.payload.action).toBeTypeOf('string');
    expect('ref' in all.find((e) => e.type === 'CreateEvent')!.payload).toBe(true);
  });
});

/** Each fault breaks its rule: the probe holds on a correct reference and fails with the fault alone. */
const PROBES: Record<string, Probe> = {
  'events-older-than-90-days': async (b) => {
    const pages = await Promise.all([1, 2, 3].map((p) => call(b, `/repos/acme/widgets/events?per_page=100&page=${p}`)));
    return pages.flatMap((r) => r.body).every((e) => age(e) <= LIMITS.events.maxAgeDays * DAY);
  },
  'events-public-not-delayed': async (b) => (await call(b, '/events?per_page=100')).body.every((e: { created_at: string }) => age(e) >= 5 * 60_000),
  'events-network-no-redirect': async (b) => (await call(b, '/networks/acme/old-widgets/events')).status === 301,
  'events-private-leak': async (b) => (await call(b, '/users/mona/events?per_page=100', { token: null })).body.every((e: { public: boolean }) => e.public),
  'events-user-org-any-user': async (b) => [403, 404].includes((await call(b, '/users/mona/events/orgs/acme', { token: TOKENS.classicPublic })).status),
  'events-received-public-private': async (b) => (await call(b, '/users/mona/received_events/public?per_page=100')).body.every((e: { public: boolean }) => e.public),
  'events-no-poll-interval': async (b) => Number((await call(b, '/events')).headers['x-poll-interval']) > 0,
  'events-per-page-uncapped': async (b) => (await call(b, '/users/mona/received_events?per_page=500')).body.length <= 100,
  'events-push-size-string': async (b) => (await call(b, '/repos/acme/widgets/events?per_page=100')).body
    .filter((e: { type: string }) => e.type === 'PushEvent').every((e: { payload: { size: unknown } }) => Number.isInteger(e.payload.size)),
  'events-public-private': async (b) => publicOnly(await call(b, '/events?per_page=100')),
  'events-network-private': async (b) => publicOnly(await call(b, '/networks/acme/secret/events?per_page=100')),
  'events-org-private': async (b) => publicOnly(await call(b, '/orgs/acme/events?per_page=100')),
  'events-user-public-private': async (b) => publicOnly(await call(b, '/users/mona/events/public?per_page=100')),
  // hubot reads hubot/private-notes, which mona watches: mona's received private events stay hers.
  'events-received-private-others': async (b) => publicOnly(await call(b, '/users/mona/received_events?per_page=100', { token: TOKENS.orgMember })),
};

const publicOnly = (r: { body: { public: boolean }[] }) => r.body.every((e) => e.public);

/** The nine timelines as the classic user (mona) reads them, keyed by the suffix of their catalogue id. */
const TIMELINE_PATHS: Record<string, string> = {
  public: '/events', network: '/networks/acme/widgets/events', org: '/orgs/acme/events', repo: '/repos/acme/widgets/events',
  user: '/users/mona/events', 'user-org': '/users/mona/events/orgs/acme', 'user-public': '/users/mona/events/public',
  received: '/users/mona/received_events', 'received-public': '/users/mona/received_events/public',
};
const capped = (t: string): Probe => async (b) => (await call(b, `${TIMELINE_PATHS[t]}?per_page=101`)).body.length === LIMITS.events.maxPerPage;
const polled = (t: string): Probe => async (b) => Number((await call(b, TIMELINE_PATHS[t]!)).headers['x-poll-interval']) > 0;
const notModified = (t: string): Probe => async (b) => {
  const first = await call(b, TIMELINE_PATHS[t]!);
  return (await call(b, TIMELINE_PATHS[t]!, { headers: { 'if-none-match': first.headers.etag! } })).status === 304;
};

/** per_page=5 gives five events, and page 2 five others. */
const paged = (t: string): Probe => async (b) => {
  const [one, two] = await Promise.all([call(b, `${TIMELINE_PATHS[t]}?per_page=5&page=1`), call(b, `${TIMELINE_PATHS[t]}?per_page=5&page=2`)]);
  const ids = new Set(one.body.map((e: { id: string }) => e.id));
  return one.body.length === 5 && two.body.length === 5 && two.body.every((e: { id: string }) => !ids.has(e.id));
};
const quoted = (t: string): Probe => async (b) => /^"[^"]+"$/.test((await call(b, TIMELINE_PATHS[t]!)).headers.etag ?? '');
const anonymous = (t: string): Probe => async (b) => (await call(b, TIMELINE_PATHS[t]!, { token: null })).status === 200;
/** Every page of the timeline, read to its end, holds only events of the past 90 days. */
/** Every page of the timeline, to the last its Link header names. */
const recent = (t: string): Probe => async (b) => {
  const first = await call(b, `${TIMELINE_PATHS[t]}?per_page=100`);
  const last = Number(/<[^>]*[?&]page=(\d+)[^>]*>;\s*rel="last"/.exec(first.headers.link ?? '')?.[1] ?? 1);
  const pages = await Promise.all(Array.from({ length: last }, (_, i) => call(b, `${TIMELINE_PATHS[t]}?per_page=100&page=${i + 1}`)));
  return pages.flatMap((r) => r.body).every((e) => age(e) <= LIMITS.events.maxAgeDays * DAY);
};

/** The rules every timeline shares, broken on one timeline at a time. */
const PER_TIMELINE: Record<string, Probe> = {
  'events-public-per-page-uncapped': capped('public'),
  'events-network-per-page-uncapped': capped('network'),
  'events-org-per-page-uncapped': capped('org'),
  'events-repo-per-page-uncapped': capped('repo'),
  'events-user-per-page-uncapped': capped('user'),
  'events-user-org-per-page-uncapped': capped('user-org'),
  'events-user-public-per-page-uncapped': capped('user-public'),
  'events-received-per-page-uncapped': capped('received'),
  'events-received-public-per-page-uncapped': capped('received-public'),
  'events-public-no-poll-interval': polled('public'),
  'events-network-no-poll-interval': polled('network'),
  'events-org-no-poll-interval': polled('org'),
  'events-repo-no-poll-interval': polled('repo'),
  'events-user-no-poll-interval': polled('user'),
  'events-user-org-no-poll-interval': polled('user-org'),
  'events-user-public-no-poll-interval': polled('user-public'),
  'events-received-no-poll-interval': polled('received'),
  'events-received-public-no-poll-interval': polled('received-public'),
  'events-public-if-none-match-ignored': notModified('public'),
  'events-network-if-none-match-ignored': notModified('network'),
  'events-org-if-none-match-ignored': notModified('org'),
  'events-repo-if-none-match-ignored': notModified('repo'),
  'events-user-if-none-match-ignored': notModified('user'),
  'events-user-org-if-none-match-ignored': notModified('user-org'),
  'events-user-public-if-none-match-ignored': notModified('user-public'),
  'events-received-if-none-match-ignored': notModified('received'),
  'events-received-public-if-none-match-ignored': notModified('received-public'),
  'events-public-page-ignored': paged('public'),
  'events-network-page-ignored': paged('network'),
  'events-org-page-ignored': paged('org'),
  'events-repo-page-ignored': paged('repo'),
  'events-user-page-ignored': paged('user'),
  'events-user-org-page-ignored': paged('user-org'),
  'events-user-public-page-ignored': paged('user-public'),
  'events-received-page-ignored': paged('received'),
  'events-received-public-page-ignored': paged('received-public'),
  'events-public-per-page-ignored': paged('public'),
  'events-network-per-page-ignored': paged('network'),
  'events-org-per-page-ignored': paged('org'),
  'events-repo-per-page-ignored': paged('repo'),
  'events-user-per-page-ignored': paged('user'),
  'events-user-org-per-page-ignored': paged('user-org'),
  'events-user-public-per-page-ignored': paged('user-public'),
  'events-received-per-page-ignored': paged('received'),
  'events-received-public-per-page-ignored': paged('received-public'),
  'events-public-etag-unquoted': quoted('public'),
  'events-network-etag-unquoted': quoted('network'),
  'events-org-etag-unquoted': quoted('org'),
  'events-repo-etag-unquoted': quoted('repo'),
  'events-user-etag-unquoted': quoted('user'),
  'events-user-org-etag-unquoted': quoted('user-org'),
  'events-user-public-etag-unquoted': quoted('user-public'),
  'events-received-etag-unquoted': quoted('received'),
  'events-received-public-etag-unquoted': quoted('received-public'),
  'events-public-anonymous-refused': anonymous('public'),
  'events-network-anonymous-refused': anonymous('network'),
  'events-org-anonymous-refused': anonymous('org'),
  'events-repo-anonymous-refused': anonymous('repo'),
  'events-user-anonymous-refused': anonymous('user'),
  'events-user-public-anonymous-refused': anonymous('user-public'),
  'events-received-anonymous-refused': anonymous('received'),
  'events-received-public-anonymous-refused': anonymous('received-public'),
  'events-public-older-than-90-days': recent('public'),
  'events-network-older-than-90-days': recent('network'),
  'events-org-older-than-90-days': recent('org'),
  'events-repo-older-than-90-days': recent('repo'),
  'events-user-older-than-90-days': recent('user'),
  'events-user-org-older-than-90-days': recent('user-org'),
  'events-user-public-older-than-90-days': recent('user-public'),
  'events-received-older-than-90-days': recent('received'),
  'events-received-public-older-than-90-days': recent('received-public'),
  'events-user-private-hidden': async (b) => (await call(b, '/users/mona/events?per_page=100')).body.some((e: { public: boolean }) => !e.public),
  'events-user-org-anonymous-open': async (b) => (await call(b, '/users/mona/events/orgs/acme', { token: null })).status === 404,
  'auth-sso-blocks-fine-grained': async (b) => (await call(b, '/orgs/acme/events', { token: TOKENS.fineGrained })).status === 200,
  'events-network-unknown-empty': async (b) => (await call(b, '/networks/acme/conformance-no-such-repository/events')).status === 404,
  'auth-private-network-open': async (b) => (await call(b, '/networks/acme/secret/events', { token: null })).status === 404,
};

describeFaultProbes('event faults', PROBES);
describeFaultProbes('event faults of one timeline', PER_TIMELINE);
