/**
 * Notification rules on every member of the family they govern: the repository variant's own
 * parameters (per_page default 30, all / since / before), the default page sizes and
 * `participating`, marking read user-wide and limited to one repository, the subscription's
 * `ignored` default, and classic-only on the endpoints besides GET /notifications.
 */
import { LIMITS } from '../spec/limits.js';
import { NOT_CLASSIC_TOKENS } from '../core/profile.js';
import { lookAgain, lookPauses } from '../core/look-again.js';
import { expectRefusal } from '../core/refusal.js';
import type { CheckContext, CheckSpec } from '../core/suite.js';
import { ignoreFirstThread, threads, threadsOnceMarked, type Subscription, type Thread } from './notifications-http.js';
import { judgeNotModified } from './not-modified.js';

const CLASSIC: CheckSpec['needs'] = { tokens: ['classic'] };
const WITH_REPO: CheckSpec['needs'] = { tokens: ['classic'], resources: ['public_repo'] };
const repoPath = (t: CheckContext) => `/repos/${t.resources.public_repo}/notifications`;
const ids = (list: readonly Thread[]) => list.map((x) => x.id).join(',');
const at = (x: Thread) => Date.parse(x.updated_at);

/** Every thread of a listing, page by page ("page integer (default 1)"), at most ten pages. */
async function everyPage(t: CheckContext, path: string, perPage: number): Promise<Thread[] | undefined> {
  const seen: Thread[] = [];
  for (let page = 1; page <= 10; page++) {
    const got = await threads(t, `${path}${path.includes('?') ? '&' : '?'}per_page=${perPage}&page=${page}`);
    if (!got) return undefined;
    seen.push(...got);
    if (got.length < perPage) break;
  }
  return seen;
}

/** Without per_page a page holds the stated default while more threads exist. */
async function defaultPage(t: CheckContext, path: string, max: number, byDefault: number): Promise<void> {
  const wide = await threads(t, `${path}?all=true&per_page=${max}`);
  const plain = await threads(t, `${path}?all=true`);
  if (!wide || !plain) return;
  const expected = Math.min(byDefault, wide.length);
  if (plain.length !== expected) t.fail(`GET ${path}?all=true lists ${plain.length} threads without per_page, though per_page=${max} lists ${wide.length} (default ${byDefault})`);
  if (wide.length < byDefault) t.info(`fewer than ${byDefault} threads: the default was seen only as an upper bound`);
}

/** "page integer (default 1)": page 2 continues where page 1 ends, in the order of one wide page. */
async function pageNumbers(t: CheckContext, path: string, max: number): Promise<void> {
  const size = 5;
  const wide = await threads(t, `${path}?all=true&per_page=${max}`);
  if (!wide) return;
  if (wide.length <= size) return t.skip('inconclusive', `GET ${path} lists ${wide.length} threads: no second page of ${size}`);
  for (const [query, from] of [[`&per_page=${size}`, 0], [`&per_page=${size}&page=2`, size]] as const) {
    const got = await threads(t, `${path}?all=true${query}`);
    const expected = wide.slice(from, from + size);
    if (got && ids(got) !== ids(expected)) t.fail(`GET ${path}?all=true${query} lists threads ${ids(got) || 'none'}, not ${ids(expected)}`);
  }
}

export const notificationReadChecks: CheckSpec[] = [
  {
    id: 'notifications.page-numbers', title: 'page=2 continues where the first page ends; no page is page 1 (/notifications)', requirement: 'notifications.list-filters', needs: CLASSIC,
    run: (t) => pageNumbers(t, '/notifications', LIMITS.notifications.maxPerPage),
  },
  {
    id: 'notifications.repo-page-numbers', title: 'page=2 continues where the first page ends; no page is page 1 (the repository variant)',
    requirement: 'notifications.repo-list-params', needs: WITH_REPO,
    run: (t) => pageNumbers(t, repoPath(t), LIMITS.notifications.repoMaxPerPage),
  },
  {
    id: 'notifications.repo-last-modified-304', title: 'The repository variant carries Last-Modified; sending it back unchanged in If-Modified-Since answers 304',
    requirement: 'cond.last-modified-304', needs: WITH_REPO, polls: 'notifications',
    async run(t) {
      const path = `${repoPath(t)}?all=true`;
      const r = await t.request({ path });
      if (!t.expectStatus(r, [200], `GET ${path}`)) return;
      const lm = r.headers['last-modified'];
      if (!lm) return t.fail(`GET ${path}: no Last-Modified header`);
      judgeNotModified(t, path, 'last-modified', r, await t.request({ path, headers: { 'if-modified-since': lm }, poll: true }));
    },
  },
  {
    id: 'notifications.repo-poll-interval', title: 'The repository variant carries X-Poll-Interval', requirement: 'poll.interval-header', needs: WITH_REPO,
    async run(t) {
      const r = await t.request({ path: repoPath(t) });
      if (!t.expectStatus(r, [200], `GET ${repoPath(t)}`)) return;
      const v = r.headers['x-poll-interval'];
      if (v === undefined) t.fail(`GET ${repoPath(t)}: no X-Poll-Interval`);
      else if (!/^\d+$/.test(v)) t.fail(`GET ${repoPath(t)}: X-Poll-Interval "${v}" is not a number of seconds`);
    },
  },
  {
    id: 'notifications.scopes', title: 'A classic token holding neither notifications nor repo is refused (403 or 404) where the classic token with them is admitted',
    requirement: 'notifications.scopes', needs: { tokens: ['classic', 'classic_public'] },
    async run(t) {
      const scopes = t.profile.tokens?.classic_public?.scopes;
      if (!scopes || scopes.some((s) => s === 'notifications' || s === 'repo')) {
        return t.skip('missing-token', `tokens.classic_public.scopes is ${JSON.stringify(scopes)}: not declared without notifications and repo`);
      }
      const paths = ['/notifications?per_page=1', ...(t.resources.public_repo ? [`${repoPath(t)}?per_page=1`] : [])];
      // The control: the same listing with the classic token that holds the scopes.
      for (const path of paths) {
        await expectRefusal(t, { probe: { path, as: 'classic_public' }, control: { path }, expected: [403, 404], what: `GET ${path} with scopes ${scopes.join(', ')}` });
      }
    },
  },
  {
    id: 'notifications.per-page-default', title: 'Without per_page, /notifications lists 50 threads a page', requirement: 'notifications.list-filters', needs: CLASSIC,
    run: (t) => defaultPage(t, '/notifications', LIMITS.notifications.maxPerPage, LIMITS.notifications.defaultPerPage),
  },
  {
    id: 'notifications.repo-per-page-default', title: 'Without per_page, the repository variant lists 30 threads a page', requirement: 'notifications.repo-list-params', needs: WITH_REPO,
    run: (t) => defaultPage(t, repoPath(t), LIMITS.notifications.repoMaxPerPage, LIMITS.notifications.repoDefaultPerPage),
  },
  {
    id: 'notifications.participating-default', title: 'participating defaults to false: leaving it out lists what participating=false lists (both variants)',
    requirement: 'notifications.list-filters', needs: WITH_REPO,
    async run(t) {
      for (const [path, max] of [['/notifications', LIMITS.notifications.maxPerPage], [repoPath(t), LIMITS.notifications.repoMaxPerPage]] as const) {
        const plain = await threads(t, `${path}?all=true&per_page=${max}`);
        const explicit = await threads(t, `${path}?all=true&participating=false&per_page=${max}`);
        if (plain && explicit && ids(plain) !== ids(explicit)) t.fail(`GET ${path}: without participating ${plain.length} threads, with participating=false ${explicit.length}`);
      }
    },
  },
  {
    id: 'notifications.repo-list-filters', title: 'The repository variant: all=false lists unread threads only; since and before bound updated_at',
    requirement: 'notifications.repo-list-params', needs: WITH_REPO,
    async run(t) {
      const path = repoPath(t);
      const max = LIMITS.notifications.repoMaxPerPage;
      const all = await threads(t, `${path}?all=true&per_page=${max}`);
      if (!all) return;
      const unread = await threads(t, `${path}?per_page=${max}`);
      const read = unread?.filter((x) => !x.unread) ?? [];
      if (read.length) t.fail(`without all=true, ${read.length} read threads are listed, e.g. ${read[0]!.id}`);
      if (!all.some((x) => !x.unread)) t.info('no read thread in the repository: all=false had nothing to leave out');
      const times = [...new Set(all.map(at))].sort((a, b) => a - b);
      if (times.length < 3) return t.skip('inconclusive', `fewer than three update times among the repository's threads`);
      const pivot = new Date(times[Math.floor(times.length / 2)]!).toISOString().replace('.000Z', 'Z');
      const since = await threads(t, `${path}?all=true&per_page=${max}&since=${encodeURIComponent(pivot)}`);
      const early = since?.filter((x) => at(x) < Date.parse(pivot)) ?? [];
      if (early.length) t.fail(`since=${pivot} lists ${early.length} threads updated before it, e.g. ${early[0]!.id} at ${early[0]!.updated_at}`);
      const before = await threads(t, `${path}?all=true&per_page=${max}&before=${encodeURIComponent(pivot)}`);
      const late = before?.filter((x) => at(x) > Date.parse(pivot)) ?? [];
      if (late.length) t.fail(`before=${pivot} lists ${late.length} threads updated after it, e.g. ${late[0]!.id} at ${late[0]!.updated_at}`);
    },
  },
  {
    id: 'notifications.classic-only-variants', title: 'The repository listing, a thread and its subscription refuse tokens other than a classic one; the classic token reads them',
    requirement: 'notifications.classic-only', needs: CLASSIC,
    async run(t) {
      const others = NOT_CLASSIC_TOKENS.filter((n) => t.profile.tokens?.[n]);
      if (!others.length) return t.skip('missing-token', 'the profile names no fine_grained, app_user or app_installation token');
      const id = (await threads(t, '/notifications?all=true&per_page=1'))?.[0]?.id;
      const paths = [
        ...(t.resources.public_repo ? [`${repoPath(t)}?per_page=1`] : []),
        ...(id ? [`/notifications/threads/${id}`, `/notifications/threads/${id}/subscription`] : []),
      ];
      let probed = 0;
      for (const path of paths) {
        // The control: a refusal counts only where the classic token is admitted.
        if ((await t.request({ path })).status !== 200) continue;
        probed += 1;
        for (const as of others) {
          const r = await t.request({ path, as });
          if (r.status >= 200 && r.status < 300) t.fail(`GET ${path} with the ${as} token answered ${r.status}`);
        }
      }
      if (!probed) t.skip('inconclusive', 'the classic token read none of the repository listing, a thread or its subscription');
    },
  },
];

/** The unread threads of the whole account, oldest last. */
const unreadEverywhere = (t: CheckContext) => everyPage(t, '/notifications', LIMITS.notifications.maxPerPage);

/**
 * The unread threads once they stop changing: an earlier 202 may still be marking in the
 * background (each check that got one looks until its marking shows), and what it marks must not
 * be taken for this check's doing. Two reads alike, looked at again as core/look-again.ts does,
 * within the five seconds it always had.
 */
async function settledUnread(t: CheckContext): Promise<Thread[]> {
  let last = await unreadEverywhere(t);
  for (const ms of lookPauses(SETTLING_MS)) {
    if (!last) break;
    await t.sleep(ms);
    const now = await unreadEverywhere(t);
    if (now && ids(now) === ids(last)) return now;
    last = now;
  }
  return t.skip('inconclusive', 'the unread threads kept changing (a background marking still running?)');
}

/** How long the unread threads may keep changing before a check gives up on them. */
const SETTLING_MS = 5000;
/** How long a marking answered 202 is given to finish in the background. */
const MARKING_MS = 1500;

/**
 * After a 202 the marking finishes in the background: the whole bound before judging what it left,
 * since what it marks beyond its scope (the failure judged) may come last.
 */
const settle = async (t: CheckContext, status: number) => (status === 202 ? t.sleep(MARKING_MS) : undefined);

export const notificationWriteChecks: CheckSpec[] = [
  {
    id: 'notifications.user-mark-read', title: 'PUT /notifications with last_read_at reads the threads updated at or before it and leaves later ones unread',
    requirement: 'notifications.mark-read', needs: CLASSIC, writes: 'notifications',
    async run(t) {
      const unread = await settledUnread(t);
      if (unread.length < 2) return t.skip('missing-resource', 'fewer than two unread threads');
      // The three oldest unread threads only: a change small enough to finish at once.
      const pivot = unread[Math.max(unread.length - 3, 1)]!.updated_at;
      const later = unread.filter((x) => at(x) > Date.parse(pivot));
      const r = await t.request({ method: 'PUT', path: '/notifications', body: { last_read_at: pivot } });
      t.journal.irreversible(`threads updated at or before ${pivot} marked read`, 'the API offers no way to mark threads unread');
      if (!t.expectStatus(r, [202, 205], 'PUT /notifications with last_read_at')) return;
      await settle(t, r.status);
      const still = (await unreadEverywhere(t)) ?? [];
      const early = still.filter((x) => at(x) <= Date.parse(pivot));
      if (early.length) t.fail(`${early.length} threads updated at or before ${pivot} are still unread`);
      const gone = later.filter((x) => !still.some((y) => y.id === x.id));
      if (gone.length) t.fail(`${gone.length} threads updated after ${pivot} were marked read too, e.g. ${gone[0]!.id}`);
    },
  },
  {
    id: 'notifications.repo-mark-read-scope', title: "PUT /repos/{owner}/{repo}/notifications leaves other repositories' threads unread",
    requirement: 'notifications.repo-mark-read', needs: WITH_REPO, writes: 'notifications',
    async run(t) {
      const repo = t.resources.public_repo!;
      const elsewhere = (await settledUnread(t)).filter((x) => x.repository?.full_name !== undefined && x.repository.full_name !== repo);
      if (!elsewhere.length) return t.skip('missing-resource', `no unread thread outside ${repo}`);
      // Every unread thread elsewhere was updated at or before last_read_at: only the scope keeps them unread.
      const newest = elsewhere.reduce((a, b) => (at(a) >= at(b) ? a : b)).updated_at;
      const r = await t.request({ method: 'PUT', path: repoPath(t), body: { last_read_at: newest } });
      t.journal.irreversible(`threads of ${repo} updated at or before ${newest} marked read`, 'the API offers no way to mark threads unread');
      if (!t.expectStatus(r, [202, 205], `PUT ${repoPath(t)}`)) return;
      await settle(t, r.status);
      const still = new Set(((await unreadEverywhere(t)) ?? []).map((x) => x.id));
      const marked = elsewhere.filter((x) => !still.has(x.id));
      if (marked.length) t.fail(`${marked.length} threads of other repositories were marked read too, e.g. ${marked[0]!.id} of ${marked[0]!.repository?.full_name}`);
    },
  },
  {
    id: 'notifications.user-accepted-message', title: 'A 202 of PUT /notifications (user-wide) carries a message',
    requirement: 'notifications.accepted-message', needs: CLASSIC, writes: 'notifications',
    async run(t) {
      const unread = await settledUnread(t);
      // The forty oldest unread threads: enough that a server may finish in the background, far from all of them.
      const batch = 40;
      if (unread.length <= batch) return t.skip('missing-resource', `only ${unread.length} unread threads: a batch of ${batch} would read them all`);
      const pivot = unread[unread.length - batch]!.updated_at;
      const r = await t.request({ method: 'PUT', path: '/notifications', body: { last_read_at: pivot } });
      t.journal.irreversible(`threads updated at or before ${pivot} marked read`, 'the API offers no way to mark threads unread');
      if (!t.expectStatus(r, [202, 205], 'PUT /notifications with last_read_at')) return;
      if (r.status === 205) return t.info(`answered 205: ${batch} threads were marked at once, so no 202 to inspect`);
      const message = (t.body<{ message?: unknown }>(r))?.message;
      if (typeof message !== 'string') t.fail(`the 202 body is ${t.client.excerpt(r.text, 100)}, without a message string`);
      // The checks after it must not see this marking still under way: looked at again until it shows (nothing is judged of it).
      await lookAgain((ms) => t.sleep(ms), async () => (await unreadEverywhere(t)) ?? [], (unread) => unread.every((x) => at(x) > Date.parse(pivot)), MARKING_MS);
    },
  },
  {
    id: 'notifications.repo-mark-read-all', title: 'PUT /repos/{owner}/{repo}/notifications without last_read_at reads every thread of that repository',
    requirement: 'notifications.repo-mark-read', needs: WITH_REPO, writes: 'notifications',
    async run(t) {
      // A repository that still has unread threads: the profile's, or the one of the newest unread thread.
      const unread = await settledUnread(t);
      const repo = unread.some((x) => x.repository?.full_name === t.resources.public_repo) ? t.resources.public_repo! : unread[0]?.repository?.full_name;
      if (!repo) return t.skip('missing-resource', 'no unread thread left to mark');
      const path = `/repos/${repo}/notifications`;
      const r = await t.request({ method: 'PUT', path, body: {} });
      t.journal.irreversible(`every thread of ${repo} marked read`, 'the API offers no way to mark threads unread');
      if (!t.expectStatus(r, [202, 205], `PUT ${path} without last_read_at`)) return;
      // A 202 finishes in the background: look again, within a bound.
      const left = await threadsOnceMarked(t, `${path}?per_page=${LIMITS.notifications.repoMaxPerPage}`, (seen) => !seen.length);
      if (left.length) t.fail(`${left.length} threads of ${repo} are still unread, e.g. ${left[0]!.id} updated ${left[0]!.updated_at}`);
    },
  },
  {
    id: 'notifications.subscription-ignored-default', title: 'PUT on a subscription without ignored un-ignores the thread (ignored defaults to false)',
    requirement: 'notifications.subscription-ignored-default', needs: CLASSIC, writes: 'notifications',
    async run(t) {
      const path = await ignoreFirstThread(t);
      const ignored = t.body<Subscription>(await t.request({ path }));
      if (ignored?.ignored !== true) return t.skip('inconclusive', `after PUT ignored=true the subscription reads ${JSON.stringify(ignored)}`);
      if (!t.expectStatus(await t.request({ method: 'PUT', path, body: {} }), [200], 'PUT without ignored')) return;
      const now = t.body<Subscription>(await t.request({ path }));
      if (now?.ignored !== false) t.fail(`after PUT without ignored, a later GET shows ignored=${JSON.stringify(now?.ignored)}`);
    },
  },
];
