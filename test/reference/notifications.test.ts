/** Document 1, Notifications, over HTTP: listings, polling, marking as read, subscriptions. */
import { describe, expect, it } from 'vitest';
import { nextReason } from '../../reference/areas/notifications.js';
import { LIMITS } from '../../spec/limits.js';
import { NOTIFICATION_REASONS } from '../../spec/vocabulary.js';
import { call, TOKENS, useReference, type Reply } from '../helpers/reference.js';
import { describeFaultProbes, type Probe } from '../helpers/faults.js';

interface ThreadBody { id: string; unread: boolean; updated_at: string; reason: string; repository: { full_name: string } }
const times = (r: Reply) => (r.body as ThreadBody[]).map((t) => Date.parse(t.updated_at));
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('notification listings', () => {
  const ref = useReference();

  it('list unread threads newest first, capped at 50, with reasons from the documented set', async () => {
    const r = await ref.get('/notifications?per_page=100');
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(LIMITS.notifications.maxPerPage);
    expect(times(r)).toEqual([...times(r)].sort((a, b) => b - a));
    for (const t of r.body as ThreadBody[]) {
      expect(t.unread).toBe(true);
      expect(NOTIFICATION_REASONS).toContain(t.reason);
    }
    expect(r.headers.link).toMatch(/rel="next"/);
  });

  it('include read threads with all=true, and filter by participating, since and before', async () => {
    const all = (await ref.get('/notifications?all=true&per_page=50')).body as ThreadBody[];
    expect(all.some((t) => !t.unread)).toBe(true);
    const repoAll = (await ref.get('/repos/mona/dotfiles/notifications?all=true&per_page=100')).body as ThreadBody[];
    const part = (await ref.get('/repos/mona/dotfiles/notifications?all=true&participating=true&per_page=100')).body as ThreadBody[];
    expect(part.length).toBeGreaterThan(0);
    expect(part.length).toBeLessThan(repoAll.length);
    const pivot = all[10]!.updated_at;
    const since = (await ref.get(`/notifications?all=true&since=${pivot}`)).body as ThreadBody[];
    expect(since.every((t) => Date.parse(t.updated_at) > Date.parse(pivot))).toBe(true);
    expect(since.length).toBe(10);
    const before = (await ref.get(`/notifications?all=true&before=${pivot}&per_page=5`)).body as ThreadBody[];
    expect(before.every((t) => Date.parse(t.updated_at) < Date.parse(pivot))).toBe(true);
    expect((await ref.get('/notifications?since=yesterday')).status).toBe(422);
  });

  it('cap the repository variant at 100 with a default of 30', async () => {
    expect((await ref.get('/repos/acme/widgets/notifications?all=true')).body.length).toBe(LIMITS.notifications.repoDefaultPerPage);
    const r = (await ref.get('/repos/acme/widgets/notifications?all=true&per_page=500')).body as ThreadBody[];
    expect(r.length).toBeLessThanOrEqual(LIMITS.notifications.repoMaxPerPage);
    expect(r.every((t) => t.repository.full_name === 'acme/widgets')).toBe(true);
  });

  it('poll with Last-Modified: 304 without rate-limit cost; X-Poll-Interval present', async () => {
    const first = await ref.get('/notifications');
    const lm = first.headers['last-modified']!;
    expect(lm).toBeTruthy();
    expect(Number(first.headers['x-poll-interval'])).toBeGreaterThan(0);
    const again = await ref.get('/notifications', { headers: { 'if-modified-since': lm } });
    expect(again.status).toBe(304);
    expect(again.headers['x-ratelimit-remaining']).toBe(first.headers['x-ratelimit-remaining']);
  });

  it('hide other users\' threads and refuse other token kinds', async () => {
    // Thread ids are sequential across users; a listing of everything mona has shows where hubot's begin.
    const ids: number[] = [];
    for (let page = 1; page <= 4; page++) ids.push(...((await ref.get(`/notifications?all=true&page=${page}`)).body as ThreadBody[]).map((t) => Number(t.id)));
    const othersThread = Math.max(...ids) + 1;
    expect((await ref.get(`/notifications/threads/${othersThread}`)).status).toBe(404);
    expect((await ref.get(`/notifications/threads/${othersThread}/subscription`)).status).toBe(404);
    expect((await ref.get('/notifications', { token: TOKENS.fineGrained })).status).toBe(403);
    expect((await ref.get('/notifications', { token: null })).status).toBe(401);
  });

  it('omit threads of organizations the token is not authorized for, saying so in X-Service-SSO', async () => {
    const r = await ref.get('/notifications?all=true&per_page=50', { token: TOKENS.ssoUnauthorized });
    expect(r.status).toBe(200);
    expect((r.body as ThreadBody[]).some((t) => t.repository.full_name.startsWith('acme/'))).toBe(false);
    expect(r.headers['x-service-sso']).toMatch(/^partial-results; organizations=\d+/);
  });
});

describe('marking as read and subscriptions', () => {
  const ref = useReference();

  it('PUT /repos/{owner}/{repo}/notifications marks only that repository, at or before last_read_at', async () => {
    const before = (await ref.get('/repos/mona/dotfiles/notifications?per_page=100')).body as ThreadBody[];
    const cut = before[Math.floor(before.length / 2)]!.updated_at;
    const r = await ref.get('/repos/mona/dotfiles/notifications', { method: 'PUT', body: { last_read_at: cut } });
    expect([202, 205]).toContain(r.status);
    const after = (await ref.get('/repos/mona/dotfiles/notifications?per_page=100')).body as ThreadBody[];
    expect(after.every((t) => Date.parse(t.updated_at) > Date.parse(cut))).toBe(true);
    expect(after.length).toBe(before.filter((t) => Date.parse(t.updated_at) > Date.parse(cut)).length);
    expect((await ref.get('/repos/acme/widgets/notifications?per_page=1')).body.length).toBe(1);
  });

  it('PATCH a thread: 205 and read', async () => {
    const t = ((await ref.get('/notifications?per_page=1')).body as ThreadBody[])[0]!;
    expect((await ref.get(`/notifications/threads/${t.id}`, { method: 'PATCH' })).status).toBe(205);
    expect((await ref.get(`/notifications/threads/${t.id}`)).body.unread).toBe(false);
  });

  it('subscriptions: ignore, unignore, delete', async () => {
    const path = '/notifications/threads/2/subscription';
    const ignored = await ref.get(path, { method: 'PUT', body: { ignored: true } });
    expect(ignored.status).toBe(200);
    expect((await ref.get(path)).body.ignored).toBe(true);
    const back = await ref.get(path, { method: 'PUT', body: { ignored: false } });
    expect(back.body).toMatchObject({ ignored: false, subscribed: true });
    expect((await ref.get(path, { method: 'PUT', body: { ignored: 'yes' } })).status).toBe(422);
    const del = await ref.get(path, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
  });

  it('PUT /notifications for a large batch: 202 with a message, finished in the background', async () => {
    const r = await ref.get('/notifications', { method: 'PUT', body: {} });
    expect(r.status).toBe(202);
    expect(r.body.message).toBeTypeOf('string');
    await wait(100);
    expect((await ref.get('/notifications')).body).toEqual([]);
  });
});

describe('the reason rule', () => {
  it('replaces a reason with a later different one, except that mention stays', () => {
    expect(nextReason(undefined, 'author')).toBe('author');
    expect(nextReason('author', 'comment')).toBe('comment');
    expect(nextReason('mention', 'comment')).toBe('mention');
  });
});

/** Each fault breaks its rule: the probe holds on a correct reference and fails with the fault alone. */
const PROBES: Record<string, Probe> = {
  'notifications-oldest-first': async (b) => {
    const r = await call(b, '/notifications');
    return times(r).every((t, i, a) => i === 0 || a[i - 1]! >= t);
  },
  'notifications-all-ignored': async (b) => ((await call(b, '/notifications?per_page=50')).body as ThreadBody[]).every((t) => t.unread),
  'notifications-since-ignored': async (b) => {
    const all = (await call(b, '/notifications?all=true')).body as ThreadBody[];
    return (await call(b, `/notifications?all=true&since=${all[3]!.updated_at}`)).body.length === 3;
  },
  'notifications-per-page-uncapped': async (b) => (await call(b, '/notifications?all=true&per_page=100')).body.length <= 50,
  'notifications-repo-per-page-uncapped': async (b) => {
    const r = await call(b, '/repos/acme/widgets/notifications?all=true&per_page=1000');
    return r.body.length <= 100;
  },
  'notifications-no-last-modified': async (b) => (await call(b, '/notifications')).headers['last-modified'] !== undefined,
  'notifications-no-poll-interval': async (b) => Number((await call(b, '/notifications')).headers['x-poll-interval']) > 0,
  'notifications-mark-read-200': async (b) => (await call(b, '/repos/mona/dotfiles/notifications', { method: 'PUT', body: {} })).status === 205,
  'notifications-marks-later-threads': async (b) => {
    const list = (await call(b, '/repos/mona/dotfiles/notifications')).body as ThreadBody[];
    const cut = list[2]!.updated_at;
    await call(b, '/repos/mona/dotfiles/notifications', { method: 'PUT', body: { last_read_at: cut } });
    return (await call(b, '/repos/mona/dotfiles/notifications')).body.length === 2;
  },
  'notifications-202-no-message': async (b) => typeof (await call(b, '/notifications', { method: 'PUT', body: {} })).body?.message === 'string',
  'notifications-patch-leaves-unread': async (b) => {
    await call(b, '/notifications/threads/2', { method: 'PATCH' });
    return (await call(b, '/notifications/threads/2')).body.unread === false;
  },
  'notifications-ignored-not-persisted': async (b) => {
    await call(b, '/notifications/threads/2/subscription', { method: 'PUT', body: { ignored: true } });
    return (await call(b, '/notifications/threads/2/subscription')).body.ignored === true;
  },
  'notifications-unignore-stays-ignored': async (b) => {
    await call(b, '/notifications/threads/2/subscription', { method: 'PUT', body: { ignored: true } });
    await call(b, '/notifications/threads/2/subscription', { method: 'PUT', body: { ignored: false } });
    const s = (await call(b, '/notifications/threads/2/subscription')).body;
    return s.ignored === false && s.subscribed === true;
  },
  'notifications-delete-200': async (b) => (await call(b, '/notifications/threads/2/subscription', { method: 'DELETE' })).status === 204,
  'notifications-reason-outside-enum': async (b) =>
    ((await call(b, '/notifications?all=true&per_page=50')).body as ThreadBody[]).every((t) => (NOTIFICATION_REASONS as readonly string[]).includes(t.reason)),
  'notifications-per-page-default-30': async (b) => (await call(b, '/notifications?all=true')).body.length === LIMITS.notifications.defaultPerPage,
  'notifications-participating-default-true': async (b) => {
    const ids = async (path: string) => ((await call(b, path)).body as ThreadBody[]).map((t) => t.id).join();
    return (await ids('/notifications?all=true')) === (await ids('/notifications?all=true&participating=false'));
  },
  'notifications-repo-per-page-default-50': async (b) =>
    (await call(b, '/repos/acme/widgets/notifications?all=true')).body.length === LIMITS.notifications.repoDefaultPerPage,
  'notifications-repo-all-ignored': async (b) => ((await call(b, '/repos/acme/widgets/notifications?per_page=100')).body as ThreadBody[]).every((t) => t.unread),
  'notifications-repo-since-ignored': async (b) => {
    const all = (await call(b, '/repos/acme/widgets/notifications?all=true')).body as ThreadBody[];
    return (await call(b, `/repos/acme/widgets/notifications?all=true&since=${all[3]!.updated_at}`)).body.length === 3;
  },
  'notifications-repo-before-ignored': async (b) => {
    const all = (await call(b, '/repos/mona/dotfiles/notifications?all=true&per_page=100')).body as ThreadBody[];
    const pivot = all[all.length - 4]!.updated_at;
    return (await call(b, `/repos/mona/dotfiles/notifications?all=true&per_page=100&before=${pivot}`)).body.length === 3;
  },
  'notifications-repo-mark-read-everywhere': async (b) => {
    await call(b, '/repos/mona/dotfiles/notifications', { method: 'PUT', body: {} });
    await wait(100);
    return ((await call(b, '/notifications?per_page=50')).body as ThreadBody[]).some((t) => t.repository.full_name !== 'mona/dotfiles');
  },
  'notifications-mark-read-ignores-last-read-at': async (b) => {
    const before = (await call(b, '/notifications?per_page=50')).body as ThreadBody[];
    await call(b, '/notifications', { method: 'PUT', body: { last_read_at: before[before.length - 1]!.updated_at } });
    await wait(100);
    // The oldest of the fifty newest unread threads is read with every older one; the 49 newer stay unread.
    return (await call(b, '/notifications?per_page=50')).body.length === before.length - 1;
  },
  'notifications-subscription-default-ignored': async (b) => {
    await call(b, '/notifications/threads/2/subscription', { method: 'PUT', body: { ignored: true } });
    await call(b, '/notifications/threads/2/subscription', { method: 'PUT', body: {} });
    return (await call(b, '/notifications/threads/2/subscription')).body.ignored === false;
  },
  'notifications-variants-any-token': async (b) => (await call(b, '/notifications/threads/2', { token: TOKENS.fineGrained })).status === 403,
  'notifications-user-202-no-message': async (b) => typeof (await call(b, '/notifications', { method: 'PUT', body: {} })).body?.message === 'string',
  'notifications-repo-no-last-modified': async (b) => {
    const lm = (await call(b, '/repos/acme/widgets/notifications')).headers['last-modified'];
    return lm !== undefined && (await call(b, '/repos/acme/widgets/notifications', { headers: { 'if-modified-since': lm } })).status === 304;
  },
  'notifications-thread-if-modified-since-ignored': async (b) => {
    const lm = (await call(b, '/notifications/threads/2')).headers['last-modified'];
    return lm !== undefined && (await call(b, '/notifications/threads/2', { headers: { 'if-modified-since': lm } })).status === 304;
  },
  'notifications-subscription-if-modified-since-ignored': async (b) => {
    const lm = (await call(b, '/notifications/threads/2/subscription')).headers['last-modified'];
    return lm !== undefined && (await call(b, '/notifications/threads/2/subscription', { headers: { 'if-modified-since': lm } })).status === 304;
  },
  'notifications-repo-no-poll-interval': async (b) => Number((await call(b, '/repos/acme/widgets/notifications')).headers['x-poll-interval']) > 0,
  'notifications-user-mark-read-200': async (b) => (await call(b, '/notifications', { method: 'PUT', body: { last_read_at: '2000-01-01T00:00:00Z' } })).status === 205,
  'notifications-scope-ignored': async (b) => (await call(b, '/notifications', { token: TOKENS.classicPublic })).status === 403,
  'notifications-omitted-last-read-at-marks-nothing': async (b) => {
    await call(b, '/repos/mona/dotfiles/notifications', { method: 'PUT', body: {} });
    await wait(100);
    return (await call(b, '/repos/mona/dotfiles/notifications')).body.length === 0;
  },
  'notifications-page-ignored': async (b) => {
    const ids = async (path: string) => ((await call(b, path)).body as ThreadBody[]).map((t) => t.id);
    return (await ids('/notifications?per_page=5&page=2')).join() === (await ids('/notifications?per_page=10')).slice(5).join();
  },
  'notifications-repo-page-ignored': async (b) => {
    const ids = async (path: string) => ((await call(b, path)).body as ThreadBody[]).map((t) => t.id);
    return (await ids('/repos/acme/widgets/notifications?per_page=5&page=2')).join() === (await ids('/repos/acme/widgets/notifications?per_page=10')).slice(5).join();
  },
  'notifications-sso-included': async (b) =>
    !((await call(b, '/notifications?all=true&per_page=50', { token: TOKENS.ssoUnauthorized })).body as ThreadBody[]).some((t) => t.repository.full_name.startsWith('acme/')),
};

describeFaultProbes('notification faults', PROBES);
