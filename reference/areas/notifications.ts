/**
 * Document 1, Notifications: per-user threads and subscriptions, newest first, with
 * Last-Modified polling, X-Poll-Interval, and 205 / 202-in-the-background marking.
 */
import { NOTIFICATION_REASONS, VALIDATION_FAILED, type NotificationReason } from '../../spec/vocabulary.js';
import type { AreaInit, AreaModule } from '../area.js';
import { canRead, ssoBlocks } from '../access.js';
import { boolParam, empty, error, json, notFound, paginate, parseTimestamp, timestamp, type HandlerContext, type HandlerResult } from '../http.js';
import { ssoPartialHeader } from '../policy.js';
import { renderRepo } from '../render.js';
import type { Repo } from '../world.js';

/** Marking more threads than this in one request answers 202 and finishes in the background. */
export const MARK_READ_BATCH = 25;
/** Reasons that count as participating: the user was involved directly (a choice; the spec does not list them). */
export const PARTICIPATING_REASONS: readonly NotificationReason[] = ['assign', 'author', 'comment', 'mention', 'review_requested', 'state_change', 'team_mention'];

interface Subscription {
  subscribed: boolean;
  ignored: boolean;
  reason: string | null;
  createdAt: number;
}

interface Thread {
  id: number;
  login: string;
  repo: Repo;
  number: number;
  title: string;
  reason: NotificationReason;
  unread: boolean;
  updatedAt: number;
  lastReadAt: number;
  subscription: Subscription | null;
}

export interface NotificationsState {
  threads: Map<number, Thread>;
  /** Per user, epoch ms of the last change: the Last-Modified of their listings. */
  changedAt: Map<string, number>;
}

/**
 * "The reason is kept per thread and replaced when a later notification has a different reason;
 * once it becomes mention it stays mention even if no further mention occurs."
 */
export function nextReason(current: NotificationReason | undefined, incoming: NotificationReason): NotificationReason {
  return current === 'mention' ? 'mention' : incoming;
}

function createState(init: AreaInit): NotificationsState {
  const { world } = init;
  const threads = new Map<number, Thread>();
  const plan: [string, string[], number][] = [
    // acme/widgets gets over 100 threads so the repository variant's cap shows.
    ['mona', ['acme/widgets', 'globex/gizmo', 'acme/widgets', 'acme/secret', 'acme/widgets', 'mona/dotfiles', 'acme/widgets'], 180],
    ['hubot', ['globex/gizmo', 'hubot/private-notes'], 6],
    ['locksmith', ['acme/widgets'], 3],
  ];
  let id = 1;
  for (const [login, repoNames, count] of plan) {
    for (let i = 0; i < count; i++, id++) {
      const repo = world.repos.get(repoNames[i % repoNames.length]!)!;
      // Each thread received two or three notifications; the rule decides the reason it keeps.
      let reason: NotificationReason | undefined;
      for (let n = 0; n < 2 + (i % 2); n++) reason = nextReason(reason, NOTIFICATION_REASONS[(i * 5 + n * 3) % NOTIFICATION_REASONS.length]!);
      const updatedAt = Math.floor((init.startedAt - 60_000 - i * 50 * 60_000) / 1000) * 1000;
      threads.set(id, {
        id, login, repo, number: 100 + i, title: `Thread ${i + 1} about ${repo.name}`, reason: reason!, unread: i % 3 !== 0,
        updatedAt, lastReadAt: updatedAt - (i % 3 === 0 ? -60_000 : 86_400_000),
        subscription: { subscribed: true, ignored: false, reason: null, createdAt: updatedAt - 7 * 86_400_000 },
      });
    }
  }
  return { threads, changedAt: new Map() };
}

/** Records a change so Last-Modified moves on by at least a second (the header's resolution). */
function touch(ctx: HandlerContext, login: string): void {
  const previous = lastModified(ctx, login);
  ctx.state.notifications.changedAt.set(login, Math.max(ctx.now(), previous + 1000));
}

function lastModified(ctx: HandlerContext, login: string): number {
  return ctx.state.notifications.changedAt.get(login) ?? ctx.state.startedAt;
}

/** "Polling: responses carry `Last-Modified`": a thread and its subscription change only with the caller's notifications. */
function dated(ctx: HandlerContext, result: HandlerResult): HandlerResult {
  result.lastModified = lastModified(ctx, ctx.caller.login!);
  return result;
}

function renderThread(ctx: HandlerContext, t: Thread): Record<string, unknown> {
  const repoUrl = `${ctx.apiBase}/repos/${t.repo.owner}/${t.repo.name}`;
  const url = `${ctx.apiBase}/notifications/threads/${t.id}`;
  return {
    id: String(t.id),
    repository: renderRepo(ctx, t.repo),
    subject: { title: t.title, url: `${repoUrl}/issues/${t.number}`, latest_comment_url: `${repoUrl}/issues/comments/${t.id * 10}`, type: 'Issue' },
    reason: ctx.fault('notifications-reason-outside-enum') ? 'watching' : t.reason,
    unread: t.unread,
    updated_at: timestamp(t.updatedAt),
    last_read_at: timestamp(t.lastReadAt),
    url,
    subscription_url: `${url}/subscription`,
  };
}

function renderSubscription(ctx: HandlerContext, t: Thread, s: Subscription): Record<string, unknown> {
  const threadUrl = `${ctx.apiBase}/notifications/threads/${t.id}`;
  return { subscribed: s.subscribed, ignored: ctx.fault('schema-subscription-ignored-string') ? String(s.ignored) : s.ignored, reason: s.reason, created_at: timestamp(s.createdAt), url: `${threadUrl}/subscription`, thread_url: threadUrl };
}

const invalid = (field: string, message: string) =>
  error(422, VALIDATION_FAILED, { errors: [{ resource: 'Notification', field, code: 'invalid', message }] });

/** Threads of the caller the listing may show, with the SSO-blocked organizations it left out. */
function visibleThreads(ctx: HandlerContext, repo?: Repo): { threads: Thread[]; blockedOrgs: number[] } {
  const blocked = new Set<number>();
  const threads = [...ctx.state.notifications.threads.values()].filter((t) => {
    if (t.login !== ctx.caller.login || (repo && t.repo !== repo) || !canRead(ctx.state.world, ctx.caller, t.repo)) return false;
    if (ssoBlocks(ctx.state.world, ctx.caller, t.repo.owner) && !ctx.fault('notifications-sso-included')) {
      blocked.add(ctx.state.world.orgs.get(t.repo.owner)!.id);
      return false;
    }
    return true;
  });
  return { threads, blockedOrgs: [...blocked] };
}

function list(ctx: HandlerContext, repo?: Repo): HandlerResult {
  const q = ctx.query;
  // Faults named notifications-repo-* break a rule on the repository variant only.
  const repoFault = (id: string) => repo !== undefined && ctx.fault(id);
  const all = boolParam(q.get('all'), false) || ctx.fault('notifications-all-ignored') || repoFault('notifications-repo-all-ignored');
  const participating = boolParam(q.get('participating'), ctx.fault('notifications-participating-default-true'));
  const bounds: Record<string, number | undefined> = {};
  for (const field of ['since', 'before'] as const) {
    const raw = q.get(field);
    if (raw === null) continue;
    const at = parseTimestamp(raw);
    if (Number.isNaN(at)) return invalid(field, `${field} must be an ISO 8601 timestamp (YYYY-MM-DDTHH:MM:SSZ)`);
    bounds[field] = at;
  }
  const since = ctx.fault('notifications-since-ignored') || repoFault('notifications-repo-since-ignored') ? undefined : bounds.since;
  const before = repoFault('notifications-repo-before-ignored') ? undefined : bounds.before;
  const { threads, blockedOrgs } = visibleThreads(ctx, repo);
  const chosen = threads.filter((t) => (all || t.unread)
    && (!participating || PARTICIPATING_REASONS.includes(t.reason))
    && (since === undefined || t.updatedAt > since)
    && (before === undefined || t.updatedAt < before));
  const direction = ctx.fault('notifications-oldest-first') ? -1 : 1;
  chosen.sort((a, b) => direction * (b.updatedAt - a.updatedAt) || b.id - a.id);
  if (ctx.fault('notifications-page-ignored') || repoFault('notifications-repo-page-ignored')) ctx.query.delete('page');
  const cap = ctx.endpoint.perPage!;
  const uncapped = ctx.fault(repo ? 'notifications-repo-per-page-uncapped' : 'notifications-per-page-uncapped');
  const wrongDefault = ctx.fault(repo ? 'notifications-repo-per-page-default-50' : 'notifications-per-page-default-30');
  const page = paginate(ctx, chosen, { max: uncapped ? Number.MAX_SAFE_INTEGER : cap.max, default: wrongDefault ? (repo ? 50 : 30) : cap.default ?? cap.max });
  const headers: Record<string, string> = { ...page.headers, ...ssoPartialHeader(ctx.names, blockedOrgs) };
  if (!ctx.fault('notifications-no-poll-interval') && !repoFault('notifications-repo-no-poll-interval')) headers['X-Poll-Interval'] = String(ctx.state.pollIntervalSeconds);
  const result = json(200, page.items.map((t) => renderThread(ctx, t)), headers);
  if (!ctx.fault('notifications-no-last-modified') && !repoFault('notifications-repo-no-last-modified')) result.lastModified = lastModified(ctx, ctx.caller.login!);
  return result;
}

function markRead(ctx: HandlerContext, repo?: Repo): HandlerResult {
  const raw = ctx.body.last_read_at;
  // "default: now; omitted means all"; the fault reads an omitted last_read_at as the epoch, so nothing is marked.
  let lastReadAt = raw === undefined && ctx.fault('notifications-omitted-last-read-at-marks-nothing') ? 0 : ctx.now();
  if (raw !== undefined) {
    lastReadAt = typeof raw === 'string' ? parseTimestamp(raw) : Number.NaN;
    if (Number.isNaN(lastReadAt)) return invalid('last_read_at', 'last_read_at must be an ISO 8601 timestamp');
  }
  const read = ctx.body.read;
  if (read !== undefined && typeof read !== 'boolean') return invalid('read', 'read must be a boolean');
  const login = ctx.caller.login!;
  // The user-wide fault reads every thread as if last_read_at had been left to its default, now.
  if (!repo && raw !== undefined && ctx.fault('notifications-mark-read-ignores-last-read-at')) lastReadAt = ctx.now();
  const scope = ctx.fault('notifications-repo-mark-read-everywhere') ? undefined : repo;
  const targets = read === false ? [] : visibleThreads(ctx, scope).threads
    .filter((t) => t.unread && (t.updatedAt <= lastReadAt || ctx.fault('notifications-marks-later-threads')));
  const mark = () => {
    for (const t of targets) {
      t.unread = false;
      t.lastReadAt = lastReadAt;
    }
    if (targets.length) touch(ctx, login);
  };
  const status = ctx.fault('notifications-mark-read-200') || (!repo && ctx.fault('notifications-user-mark-read-200')) ? 200 : 205;
  if (targets.length <= MARK_READ_BATCH) {
    mark();
    return empty(status);
  }
  setTimeout(mark, 20).unref();
  return json(202, ctx.fault('notifications-202-no-message') || (!repo && ctx.fault('notifications-user-202-no-message')) ? {} : {
    message: "Unread notifications couldn't be marked in a single request. Notifications are being marked as read in the background.",
  });
}

/** The caller's own thread, or undefined (other users' threads are not found). */
function ownThread(ctx: HandlerContext): Thread | undefined {
  const id = Number(ctx.params.thread_id);
  const t = Number.isInteger(id) ? ctx.state.notifications.threads.get(id) : undefined;
  return t && t.login === ctx.caller.login && canRead(ctx.state.world, ctx.caller, t.repo) ? t : undefined;
}

function repoFor(ctx: HandlerContext): Repo | undefined {
  const repo = ctx.state.world.repo(ctx.params.owner!, ctx.params.repo!);
  return repo && !repo.movedTo && canRead(ctx.state.world, ctx.caller, repo) ? repo : undefined;
}

export const notificationsArea: AreaModule<NotificationsState> = {
  area: 'notifications',
  faults: [
    { id: 'notifications-oldest-first', requirement: 'notifications.newest-first', effect: 'Listings put the least recently updated thread first.' },
    { id: 'notifications-all-ignored', requirement: 'notifications.list-filters', effect: 'Read threads are listed even without all=true.' },
    { id: 'notifications-since-ignored', requirement: 'notifications.list-filters', effect: '`since` does not filter.' },
    { id: 'notifications-per-page-uncapped', requirement: 'notifications.per-page-caps', effect: '/notifications serves more than 50 threads a page.' },
    { id: 'notifications-repo-per-page-uncapped', requirement: 'notifications.per-page-caps', effect: 'The repository variant serves more than 100 threads a page.' },
    { id: 'notifications-no-last-modified', requirement: 'cond.last-modified-304', effect: 'Listings carry no Last-Modified.' },
    { id: 'notifications-no-poll-interval', requirement: 'poll.interval-header', effect: 'Listings carry no X-Poll-Interval.' },
    { id: 'notifications-mark-read-200', requirement: 'notifications.mark-read', effect: 'Marking as read answers 200 instead of 205.' },
    { id: 'notifications-marks-later-threads', requirement: 'notifications.mark-read', effect: 'Marking as read also marks threads updated after last_read_at.' },
    { id: 'notifications-202-no-message', requirement: 'notifications.accepted-message', effect: 'The 202 for a large batch has no message.' },
    { id: 'notifications-patch-leaves-unread', requirement: 'notifications.thread-mark-read', effect: 'PATCH on a thread answers 205 but leaves it unread.' },
    { id: 'notifications-ignored-not-persisted', requirement: 'notifications.subscription-ignore', effect: 'ignored=true is answered but not kept.' },
    { id: 'notifications-unignore-stays-ignored', requirement: 'notifications.subscription-unignore', effect: 'ignored=false leaves the thread ignored.' },
    { id: 'notifications-delete-200', requirement: 'notifications.subscription-delete', effect: 'Deleting a subscription answers 200 with a body.' },
    { id: 'notifications-reason-outside-enum', requirement: 'resource.notification-thread', effect: 'Threads carry the reason "watching", outside the documented set.' },
    { id: 'notifications-per-page-default-30', requirement: 'notifications.list-filters', effect: '/notifications serves 30 threads a page by default, not 50.' },
    { id: 'notifications-participating-default-true', requirement: 'notifications.list-filters', effect: 'Listings without `participating` list only participating threads.' },
    { id: 'notifications-repo-per-page-default-50', requirement: 'notifications.repo-list-params', effect: 'The repository variant serves 50 threads a page by default, not 30.' },
    { id: 'notifications-repo-all-ignored', requirement: 'notifications.repo-list-params', effect: 'The repository variant lists read threads even without all=true.' },
    { id: 'notifications-repo-since-ignored', requirement: 'notifications.repo-list-params', effect: 'The repository variant ignores `since`.' },
    { id: 'notifications-repo-before-ignored', requirement: 'notifications.repo-list-params', effect: 'The repository variant ignores `before`.' },
    { id: 'notifications-repo-mark-read-everywhere', requirement: 'notifications.repo-mark-read', effect: "PUT /repos/{owner}/{repo}/notifications also marks other repositories' threads read." },
    { id: 'notifications-mark-read-ignores-last-read-at', requirement: 'notifications.mark-read', effect: 'PUT /notifications ignores last_read_at and marks every unread thread read.' },
    { id: 'notifications-subscription-default-ignored', requirement: 'notifications.subscription-ignored-default', effect: 'PUT on a subscription without `ignored` ignores the thread.' },
    { id: 'notifications-variants-any-token', requirement: 'notifications.classic-only', effect: 'Notification endpoints other than GET /notifications admit fine-grained and app tokens.' },
    { id: 'notifications-user-202-no-message', requirement: 'notifications.accepted-message', effect: 'The 202 of PUT /notifications (user-wide) has no message.' },
    { id: 'notifications-thread-if-modified-since-ignored', requirement: 'cond.last-modified-304', effect: 'A matching If-Modified-Since on a thread is answered 200, never 304.', endpoints: ['notifications.thread'] },
    { id: 'notifications-subscription-if-modified-since-ignored', requirement: 'cond.last-modified-304', effect: 'A matching If-Modified-Since on a subscription is answered 200, never 304.', endpoints: ['notifications.subscription'] },
    { id: 'notifications-repo-no-last-modified', requirement: 'cond.last-modified-304', effect: 'The repository variant carries no Last-Modified, so it never answers 304.' },
    { id: 'notifications-repo-no-poll-interval', requirement: 'poll.interval-header', effect: 'The repository variant carries no X-Poll-Interval.' },
    { id: 'notifications-user-mark-read-200', requirement: 'notifications.mark-read', effect: 'PUT /notifications (user-wide) answers 200 instead of 205.' },
    { id: 'notifications-scope-ignored', requirement: 'notifications.scopes', effect: 'Classic tokens holding neither `notifications` nor `repo` are admitted to the notification endpoints.' },
    { id: 'notifications-omitted-last-read-at-marks-nothing', requirement: 'notifications.repo-mark-read', effect: 'Marking read without last_read_at answers 205 or 202 but marks nothing.' },
    { id: 'notifications-page-ignored', requirement: 'notifications.list-filters', effect: 'Both listings ignore `page`: the first page comes back.' },
    { id: 'notifications-repo-page-ignored', requirement: 'notifications.repo-list-params', effect: 'The repository variant ignores `page`.' },
    { id: 'notifications-sso-included', requirement: 'auth.sso-partial-results', effect: 'Threads of organizations the token is not authorized for are listed.' },
  ],
  createState,
  handlers: {
    'notifications.list': (ctx) => list(ctx),
    'notifications.repo-list': (ctx) => {
      const repo = repoFor(ctx);
      return repo ? list(ctx, repo) : notFound();
    },
    'notifications.mark-read': (ctx) => markRead(ctx),
    'notifications.repo-mark-read': (ctx) => {
      const repo = repoFor(ctx);
      return repo ? markRead(ctx, repo) : notFound();
    },
    'notifications.thread': (ctx) => {
      const t = ownThread(ctx);
      return t ? dated(ctx, json(200, renderThread(ctx, t))) : notFound();
    },
    'notifications.thread-mark-read': (ctx) => {
      const t = ownThread(ctx);
      if (!t) return notFound();
      if (t.unread && !ctx.fault('notifications-patch-leaves-unread')) {
        t.unread = false;
        t.lastReadAt = ctx.now();
        touch(ctx, t.login);
      }
      return empty(205);
    },
    'notifications.subscription': (ctx) => {
      const t = ownThread(ctx);
      return t?.subscription ? dated(ctx, json(200, renderSubscription(ctx, t, t.subscription))) : notFound();
    },
    'notifications.subscription-set': (ctx) => {
      const t = ownThread(ctx);
      if (!t) return notFound();
      const ignored = ctx.body.ignored ?? ctx.fault('notifications-subscription-default-ignored');
      if (typeof ignored !== 'boolean') return invalid('ignored', 'ignored must be a boolean');
      const keepIgnored = !ignored && t.subscription?.ignored === true && ctx.fault('notifications-unignore-stays-ignored');
      const next: Subscription = keepIgnored ? t.subscription! : { subscribed: !ignored, ignored, reason: null, createdAt: t.subscription?.createdAt ?? ctx.now() };
      if (!(ignored && ctx.fault('notifications-ignored-not-persisted'))) t.subscription = next;
      touch(ctx, t.login);
      return json(200, renderSubscription(ctx, t, ignored ? { subscribed: false, ignored: true, reason: null, createdAt: next.createdAt } : next));
    },
    'notifications.subscription-delete': (ctx) => {
      const t = ownThread(ctx);
      if (!t) return notFound();
      t.subscription = null;
      touch(ctx, t.login);
      return ctx.fault('notifications-delete-200') ? json(200, { message: 'Deleted' }) : empty(204);
    },
  },
};
