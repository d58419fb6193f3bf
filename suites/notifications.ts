/** Notifications: ordering, page caps and the listing filters; with writes allowed, marking as read and the subscription transitions. */
import { LIMITS } from '../spec/limits.js';
import type { CheckContext, CheckSpec, Suite } from '../core/suite.js';
import { notificationReadChecks, notificationWriteChecks } from './notification-variants.js';
import { ignoreFirstThread, keepSubscription, threads, threadsOnceMarked, type Subscription, type Thread } from './notifications-http.js';

/** An unread thread to change, or a skip. */
async function unreadThread(t: CheckContext): Promise<string> {
  const first = (await threads(t, '/notifications?per_page=1'))?.[0];
  if (!first) return t.skip('missing-resource', 'no unread notification thread to change');
  return first.id;
}

const check = (id: string, title: string, requirement: string, run: CheckSpec['run'], needs: CheckSpec['needs'] = { tokens: ['classic'] }): CheckSpec =>
  ({ id, title, requirement, needs, run });

export const notificationsSuite: Suite = {
  name: 'notifications',
  description: 'Notification listings: most recently updated first, page caps, all / since / before.',
  checks: () => [
    check('notifications.newest-first', 'Threads come most recently updated first', 'notifications.newest-first', async (t) => {
      const listed = await threads(t, '/notifications?all=true&per_page=50');
      // Requiredness of updated_at is not shown: only the threads that give it are ordered.
      const list = listed?.filter((x) => !Number.isNaN(Date.parse(x.updated_at)));
      if (list && list.length < 2) return t.skip('inconclusive', `${list.length} notification threads with an updated_at: no order to judge`);
      const at = list?.findIndex((x, i) => i > 0 && Date.parse(x.updated_at) > Date.parse(list[i - 1]!.updated_at)) ?? -1;
      if (at > 0) t.fail(`thread ${at} (updated ${list![at]!.updated_at}) comes after one updated ${list![at - 1]!.updated_at}`);
    }),
    check('notifications.per-page-caps', 'At most 50 threads a page on /notifications, 100 on the repository variant', 'notifications.per-page-caps', async (t) => {
      const { maxPerPage, repoMaxPerPage } = LIMITS.notifications;
      const a = await threads(t, `/notifications?all=true&per_page=${maxPerPage + 1}`);
      if (a && a.length > maxPerPage) t.fail(`/notifications returned ${a.length} threads for per_page=${maxPerPage + 1}`);
      const b = await threads(t, `/repos/${t.resources.public_repo}/notifications?all=true&per_page=${repoMaxPerPage + 1}`);
      if (b && b.length > repoMaxPerPage) t.fail(`the repository variant returned ${b.length} threads for per_page=${repoMaxPerPage + 1}`);
      // Listings shorter than their cap show nothing about it.
      if (a && b && a.length < maxPerPage && b.length < repoMaxPerPage) t.skip('inconclusive', `${a.length} and ${b.length} threads: fewer than either cap`);
    }, { tokens: ['classic'], resources: ['public_repo'] }),
    check('notifications.list-filters', 'all=false lists unread threads only; since and before bound updated_at', 'notifications.list-filters', async (t) => {
      const unread = await threads(t, '/notifications?per_page=50');
      if (unread?.some((x) => x.unread === false)) t.fail('without all=true, read threads are listed');
      const all = await threads(t, '/notifications?all=true&per_page=50');
      if (!all || all.length < 3) return t.skip('missing-resource', 'fewer than three notification threads to filter');
      const pivot = all[Math.floor(all.length / 2)]!.updated_at;
      const since = await threads(t, `/notifications?all=true&per_page=50&since=${encodeURIComponent(pivot)}`);
      if (since?.some((x) => Date.parse(x.updated_at) < Date.parse(pivot))) t.fail(`since=${pivot} lists threads updated before it`);
      const before = await threads(t, `/notifications?all=true&per_page=50&before=${encodeURIComponent(pivot)}`);
      if (before?.some((x) => Date.parse(x.updated_at) > Date.parse(pivot))) t.fail(`before=${pivot} lists threads updated after it`);
      if (!unread?.length && !since?.length && !before?.length) t.inconclusive(`the unread, since=${pivot} and before=${pivot} listings are all empty: no filter to judge`);
    }),
    ...notificationReadChecks,
    {
      id: 'notifications.thread-mark-read', title: 'PATCH on a thread answers 205 and the thread is read', requirement: 'notifications.thread-mark-read',
      needs: { tokens: ['classic'] }, writes: 'notifications',
      async run(t) {
        const id = await unreadThread(t);
        const r = await t.request({ method: 'PATCH', path: `/notifications/threads/${id}` });
        t.journal.irreversible(`thread ${id} marked read`, 'the API offers no way to mark a thread unread');
        t.expectStatus(r, [205], `PATCH /notifications/threads/${id}`);
        const after = t.body<Thread>(await t.request({ path: `/notifications/threads/${id}` }));
        if (after?.unread === true) t.fail(`thread ${id} is still unread`);
        else if (after && after.unread === undefined) t.inconclusive(`a later GET of thread ${id} has no unread field (requiredness not shown): nothing to judge`);
      },
    },
    {
      id: 'notifications.subscription-ignore', title: 'PUT ignored=true answers 200 and the thread stays ignored', requirement: 'notifications.subscription-ignore',
      needs: { tokens: ['classic'] }, writes: 'notifications',
      async run(t) {
        const id = (await threads(t, '/notifications?all=true&per_page=1'))?.[0]?.id;
        if (!id) return t.skip('missing-resource', 'no notification thread');
        await keepSubscription(t, id);
        const path = `/notifications/threads/${id}/subscription`;
        if (!t.expectStatus(await t.request({ method: 'PUT', path, body: { ignored: true } }), [200], 'PUT ignored=true')) return;
        const now = t.body<Subscription>(await t.request({ path }));
        if (now && now.ignored === undefined) t.inconclusive('a later GET has no ignored field (requiredness not shown): nothing to judge');
        else if (now && now.ignored !== true) t.fail(`a later GET shows ignored=${JSON.stringify(now.ignored)}`);
      },
    },
    {
      id: 'notifications.subscription-unignore', title: 'PUT ignored=false on an ignored thread answers 200 and subscribes', requirement: 'notifications.subscription-unignore',
      needs: { tokens: ['classic'] }, writes: 'notifications',
      async run(t) {
        const path = await ignoreFirstThread(t);
        const r = await t.request({ method: 'PUT', path, body: { ignored: false } });
        if (!t.expectStatus(r, [200], 'PUT ignored=false')) return;
        const now = t.body<Subscription>(await t.request({ path }));
        // Requiredness is not shown: each field given must say subscribed and not ignored.
        if (now && now.ignored === undefined && now.subscribed === undefined) t.inconclusive('a later GET has neither ignored nor subscribed: nothing to judge');
        else if (now && (now.ignored === true || now.subscribed === false)) t.fail(`a later GET shows ${JSON.stringify(now)}, not subscribed and not ignored`);
      },
    },
    {
      id: 'notifications.subscription-delete', title: 'DELETE on a subscription answers 204', requirement: 'notifications.subscription-delete',
      needs: { tokens: ['classic'] }, writes: 'notifications',
      async run(t) {
        const id = (await threads(t, '/notifications?all=true&per_page=1'))?.[0]?.id;
        if (!id) return t.skip('missing-resource', 'no notification thread');
        await keepSubscription(t, id);
        t.expectStatus(await t.request({ method: 'DELETE', path: `/notifications/threads/${id}/subscription` }), [204], 'DELETE the subscription');
      },
    },
    {
      // The repository variant follows "the same rule, limited to the repository": it is tried there, where the change is smaller.
      id: 'notifications.mark-read', title: 'Marking read up to last_read_at reads those threads and leaves later ones unread', requirement: 'notifications.mark-read',
      needs: { tokens: ['classic'], resources: ['public_repo'] }, writes: 'notifications',
      async run(t) {
        const path = `/repos/${t.resources.public_repo}/notifications`;
        const unread = await threads(t, `${path}?per_page=100`);
        if (!unread || unread.length < 2) return t.skip('missing-resource', `fewer than two unread threads in ${t.resources.public_repo}`);
        // Only the three oldest unread threads: a small change, small enough to be finished at once (205).
        const pivot = unread[Math.max(unread.length - 3, 1)]!.updated_at;
        const later = unread.filter((x) => Date.parse(x.updated_at) > Date.parse(pivot)).map((x) => x.id);
        const r = await t.request({ method: 'PUT', path, body: { last_read_at: pivot } });
        t.journal.irreversible(`threads of ${t.resources.public_repo} updated at or before ${pivot} marked read`, 'the API offers no way to mark threads unread');
        if (!t.expectStatus(r, [202, 205], 'PUT with last_read_at')) return;
        // A 202 finishes in the background: look again, within a bound.
        const still = await threadsOnceMarked(t, `${path}?per_page=100`, (seen) => r.status === 205 || !seen.some((x) => Date.parse(x.updated_at) <= Date.parse(pivot)));
        const early = still.filter((x) => Date.parse(x.updated_at) <= Date.parse(pivot));
        if (early.length) t.fail(`${early.length} threads updated at or before ${pivot} are still unread`);
        const gone = later.filter((id) => !still.some((x) => x.id === id));
        if (gone.length) t.fail(`${gone.length} threads updated after ${pivot} were marked read too`);
      },
    },
    {
      id: 'notifications.accepted-message', title: 'A 202 for a large batch carries a message', requirement: 'notifications.accepted-message',
      needs: { tokens: ['classic'], resources: ['public_repo'] }, writes: 'notifications',
      async run(t) {
        const r = await t.request({ method: 'PUT', path: `/repos/${t.resources.public_repo}/notifications`, body: {} });
        t.journal.irreversible(`every thread of ${t.resources.public_repo} marked read`, 'the API offers no way to mark threads unread');
        if (!t.expectStatus(r, [202, 205], 'PUT without last_read_at')) return;
        if (r.status === 205) return t.info('answered 205: the batch was small enough to finish at once, so no 202 to inspect');
        const message = (t.body<{ message?: unknown }>(r))?.message;
        if (typeof message !== 'string') t.fail(`the 202 body is ${t.client.excerpt(r.text, 100)}, without a message string`);
        // The checks after it must not see this marking still under way.
        await threadsOnceMarked(t, `/repos/${t.resources.public_repo}/notifications?per_page=1`, (seen) => !seen.length);
      },
    },
    ...notificationWriteChecks,
  ],
};
