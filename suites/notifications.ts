/** Notifications, read-only: ordering, page caps and the listing filters. (Marking as read and subscriptions write: see the stateful suite.) */
import { LIMITS } from '../spec/limits.js';
import type { CheckContext, CheckSpec, Suite } from '../src/suite.js';

interface Thread { updated_at: string; unread: boolean }

async function threads(t: CheckContext, path: string): Promise<Thread[] | undefined> {
  const r = await t.request({ path });
  if (!t.expectStatus(r, [200], `GET ${path}`)) return undefined;
  const body = t.body<Thread[]>(r);
  return Array.isArray(body) ? body : (t.fail(`GET ${path} did not answer an array`), undefined);
}

const check = (id: string, title: string, requirement: string, run: CheckSpec['run'], needs: CheckSpec['needs'] = { tokens: ['classic'] }): CheckSpec =>
  ({ id, title, requirement, needs, run });

export const notificationsSuite: Suite = {
  name: 'notifications',
  description: 'Notification listings: most recently updated first, page caps, all / since / before.',
  checks: () => [
    check('notifications.newest-first', 'Threads come most recently updated first', 'notifications.newest-first', async (t) => {
      const list = await threads(t, '/notifications?all=true&per_page=50');
      const at = list?.findIndex((x, i) => i > 0 && Date.parse(x.updated_at) > Date.parse(list[i - 1]!.updated_at)) ?? -1;
      if (at > 0) t.fail(`thread ${at} (updated ${list![at]!.updated_at}) comes after one updated ${list![at - 1]!.updated_at}`);
    }),
    check('notifications.per-page-caps', 'At most 50 threads a page on /notifications, 100 on the repository variant', 'notifications.per-page-caps', async (t) => {
      const { maxPerPage, repoMaxPerPage } = LIMITS.notifications;
      const a = await threads(t, `/notifications?all=true&per_page=${maxPerPage + 1}`);
      if (a && a.length > maxPerPage) t.fail(`/notifications returned ${a.length} threads for per_page=${maxPerPage + 1}`);
      const b = await threads(t, `/repos/${t.resources.public_repo}/notifications?all=true&per_page=${repoMaxPerPage + 1}`);
      if (b && b.length > repoMaxPerPage) t.fail(`the repository variant returned ${b.length} threads for per_page=${repoMaxPerPage + 1}`);
    }, { tokens: ['classic'], resources: ['public_repo'] }),
    check('notifications.list-filters', 'all=false lists unread threads only; since and before bound updated_at', 'notifications.list-filters', async (t) => {
      const unread = await threads(t, '/notifications?per_page=50');
      if (unread?.some((x) => !x.unread)) t.fail('without all=true, read threads are listed');
      const all = await threads(t, '/notifications?all=true&per_page=50');
      if (!all || all.length < 3) return t.skip('missing-resource', 'fewer than three notification threads to filter');
      const pivot = all[Math.floor(all.length / 2)]!.updated_at;
      const since = await threads(t, `/notifications?all=true&per_page=50&since=${encodeURIComponent(pivot)}`);
      if (since?.some((x) => Date.parse(x.updated_at) < Date.parse(pivot))) t.fail(`since=${pivot} lists threads updated before it`);
      const before = await threads(t, `/notifications?all=true&per_page=50&before=${encodeURIComponent(pivot)}`);
      if (before?.some((x) => Date.parse(x.updated_at) > Date.parse(pivot))) t.fail(`before=${pivot} lists threads updated after it`);
    }),
  ],
};
