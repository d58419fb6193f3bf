import { req } from './types.js';

/** Rules of the notifications area, each quoting its spec sentence. */
export const NOTIFICATIONS = [
  req('notifications.newest-first', 'MUST', 1, 'Notifications', 'array of threads, most recently updated first'),
  req('notifications.list-filters', 'MUST', 1, 'Notifications',
    'query: all boolean (default false, include read), participating boolean (default false), since, before (timestamps), page integer (default 1), per_page integer (max 50, default 50)'),
  req('notifications.repo-list-params', 'MUST', 1, 'Notifications',
    'query all, participating, since, before, per_page (max 100, default 30), page (default 1)'),
  req('notifications.per-page-caps', 'MUST', 1, 'Limits', 'Notifications page size | max 50 on /notifications, max 100 on the repository variant'),
  req('notifications.mark-read', 'MUST', 1, 'States and transitions',
    'unread | PUT /notifications | thread updated at or before `last_read_at` (default: now; omitted means all) | read | 205, or 202 with a message when too many to finish in one request (then finished in the background)'),
  req('notifications.repo-mark-read', 'MUST', 1, 'States and transitions',
    'unread | PUT /repos/{owner}/{repo}/notifications | same rule, limited to the repository | read | 205 or 202 as above'),
  req('notifications.accepted-message', 'MUST', 1, 'Errors', '202 | Accepted; bulk mark-as-read continues in the background; body {message}'),
  req('notifications.thread-mark-read', 'MUST', 1, 'States and transitions', 'unread | PATCH /notifications/threads/{thread_id} | none | read | 205'),
  req('notifications.subscription-ignore', 'MUST', 1, 'States and transitions',
    'not ignored | PUT /notifications/threads/{thread_id}/subscription with ignored=true | none | ignored (all notifications from the thread blocked) | 200'),
  req('notifications.subscription-ignored-default', 'MUST', 1, 'Notifications', 'body: ignored boolean (default false)'),
  req('notifications.subscription-unignore', 'MUST', 1, 'States and transitions', 'ignored | same endpoint with ignored=false | none | subscribed | 200'),
  req('notifications.subscription-delete', 'MUST', 1, 'States and transitions',
    'any | DELETE /notifications/threads/{thread_id}/subscription | none | muted until the user comments or is mentioned; repository watchers still receive notifications | 204'),
  req('notifications.scopes', 'MUST', 1, 'Notifications',
    'The endpoints work only with a personal access token (classic) holding the `notifications` or `repo` scope; `repo` is needed to reach issues and commits.'),
  req('notifications.classic-only', 'MUST', 1, 'Authentication', 'Notification endpoints accept only a classic personal access token.'),
];
