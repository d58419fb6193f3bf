/**
 * Which catalogue endpoints each requirement governs: the rule x endpoint half of coverage. A rule
 * stated for a family of endpoints governs every member, so checking one representative leaves the
 * others uncovered (see npm run coverage).
 */
import { CATALOGUE, type Area, type Endpoint } from '../catalogue.js';

export interface Governs {
  endpoints: readonly string[];
  /**
   * Requirements whose checks also enforce this one on an endpoint they request (a nested resource
   * validated inside the schema that embeds it, a message asserted inside each 422 check).
   */
  via?: readonly string[];
}

const ids = (pred: (e: Endpoint) => boolean) => CATALOGUE.filter(pred).map((e) => e.id);
const ALL = ids(() => true);
const area = (a: Area) => ids((e) => e.area === a);
/** Endpoints of an area whose catalogue query parameters include the name. */
const withParam = (a: Area, name: string) => ids((e) => e.area === a && e.params.some((p) => p.in === 'query' && p.name === name));
const SEARCH = area('search');
const EVENTS = area('events');
const IMPORTS = area('imports');
const ALERTS = area('code-scanning');
const ALERT_READS = ['code-scanning.org-alerts', 'code-scanning.repo-alerts', 'code-scanning.alert'];
const NOTIFICATION_READS = ['notifications.list', 'notifications.thread', 'notifications.subscription', 'notifications.repo-list'];
const NOTIFICATION_LISTS = ['notifications.list', 'notifications.repo-list'];
const SEARCH_422 = ['search.code', 'search.issues', 'search.labels'];
const RESOURCE_SCHEMAS = [
  'resource.code-item', 'resource.commit-item', 'resource.issue-item', 'resource.label-item', 'resource.search-envelope',
  'resource.notification-thread', 'resource.thread-subscription', 'resource.event', 'resource.code-scanning-alert',
  'resource.code-scanning-alert-org', 'resource.import', 'resource.import-author', 'resource.large-file',
];

export const GOVERNS: Readonly<Record<string, Governs>> = {
  // Conventions: Authentication, Errors, Versioning hold for every endpoint.
  'auth.bearer-and-token-schemes': { endpoints: ALL },
  'auth.password-rejected': { endpoints: ALL },
  'auth.invalid-credentials-401': { endpoints: ALL },
  // Private data: every endpoint needing a token, and the timelines of a (private) repository.
  'auth.no-token-404-or-403': { endpoints: [...ids((e) => e.tokens !== 'anonymous-ok'), 'events.repo', 'events.network'] },
  'auth.lockout-403': { endpoints: ALL },
  'auth.accepted-permissions-header': { endpoints: ids((e) => !!e.permission) },
  'auth.sso-403-header': { endpoints: ['code-scanning.org-alerts', 'events.org', 'events.user-org'] },
  'auth.sso-partial-results': { endpoints: ['notifications.list', 'search.code', 'search.commits', 'search.issues', 'search.repositories'] },
  'errors.message': { endpoints: ALL },
  'versioning.listed-versions': { endpoints: ALL },
  'versioning.media-types': { endpoints: ALL },
  // Observes behaviour the spec does not show: one sample informs, nothing is enforced per endpoint.
  'versioning.unshown-behaviour': { endpoints: ['events.public'] },
  'ratelimit.rate-equals-core': { endpoints: ['rate-limit.get'] },
  'ratelimit.status-categories': { endpoints: ['rate-limit.get'] },
  'ratelimit.endpoint-not-counted': { endpoints: ['rate-limit.get'] },
  'ratelimit.app-tokens': { endpoints: ['rate-limit.get'] },
  'ratelimit.search-separate': { endpoints: SEARCH },
  'ratelimit.search-per-minute': { endpoints: ['rate-limit.get', ...SEARCH] },
  'ratelimit.authenticated-higher': { endpoints: ['rate-limit.get'] },
  // "core (all non-search REST)": every endpoint counted against core.
  'ratelimit.core-non-search': { endpoints: ids((e) => e.category === 'core') },
  // Public data: search and the event timelines, but the organization dashboard ("only the authenticated user").
  'auth.anonymous-public-data': { endpoints: ids((e) => e.tokens === 'anonymous-ok' && e.area !== 'rate-limit' && e.id !== 'events.user-org') },
  'auth.sso-fine-grained-app': { endpoints: ['code-scanning.org-alerts', 'events.org', 'events.user-org'] },
  // The 404 row of document 1 on its endpoints that list 404.
  'errors.not-found': { endpoints: ['events.network', 'search.labels'] },
  'ratelimit.304-not-counted': { endpoints: [...EVENTS, ...NOTIFICATION_READS] },
  'ratelimit.exhausted-403': { endpoints: SEARCH },
  'cond.etag-quoted': { endpoints: EVENTS },
  // /rate_limit and the searches whose rows list 304 among their statuses: conditional requests apply there too.
  'cond.etag-304': { endpoints: [...EVENTS, 'rate-limit.get', ...ids((e) => e.area === 'search' && !!e.statuses?.includes(304))] },
  'cond.last-modified-304': { endpoints: NOTIFICATION_READS },
  'poll.interval-header': { endpoints: [...NOTIFICATION_LISTS, ...EVENTS] },

  // Resources: the schema checks of the containing resources validate the nested ones.
  // "Fields ending in `_url` are strings": every answer the schema checks grade, but those whose
  // stated fields include none (the rate-limit status, the large file, the label search item).
  'resource.url-fields': { endpoints: ids((e) => e.method === 'GET' && !!e.success.schema && !['rate-limit', 'large-file', 'search-labels'].includes(e.success.schema)) },
  'resource.timestamps': {
    endpoints: ['search.commits', 'search.issues', ...NOTIFICATION_READS, 'notifications.subscription-set', ...EVENTS, ...ALERTS],
    via: RESOURCE_SCHEMAS,
  },
  'resource.user': {
    endpoints: ['search.code', 'search.commits', 'search.issues', ...NOTIFICATION_LISTS, 'notifications.thread', ...ALERTS],
    via: ['resource.code-item', 'resource.commit-item', 'resource.issue-item', 'resource.notification-thread', 'resource.code-scanning-alert', 'resource.code-scanning-alert-org'],
  },
  'resource.repository': {
    endpoints: ['search.code', 'search.commits', ...NOTIFICATION_LISTS, 'notifications.thread', 'code-scanning.org-alerts'],
    via: ['resource.code-item', 'resource.commit-item', 'resource.notification-thread', 'resource.code-scanning-alert-org'],
  },
  'resource.search-envelope': { endpoints: SEARCH, via: ['resource.code-item', 'resource.commit-item', 'resource.issue-item', 'resource.label-item'] },
  'resource.code-item': { endpoints: ['search.code'] },
  'resource.commit-item': { endpoints: ['search.commits'] },
  'resource.issue-item': { endpoints: ['search.issues'] },
  'resource.label-item': { endpoints: ['search.labels'] },
  'resource.notification-thread': { endpoints: [...NOTIFICATION_LISTS, 'notifications.thread'] },
  'resource.thread-subscription': { endpoints: ['notifications.subscription', 'notifications.subscription-set'] },
  'resource.event': { endpoints: EVENTS },
  'resource.code-scanning-alert': { endpoints: ['code-scanning.repo-alerts', 'code-scanning.alert', 'code-scanning.alert-update'] },
  'resource.code-scanning-alert-org': { endpoints: ['code-scanning.org-alerts'] },
  'resource.import': { endpoints: ['imports.get', 'imports.start', 'imports.update', 'imports.lfs'] },
  'resource.import-author': { endpoints: ['imports.authors', 'imports.author-update'] },
  'resource.large-file': { endpoints: ['imports.large-files'] },

  // Search.
  'search.q-required': { endpoints: SEARCH },
  'search.validation-message': {
    endpoints: SEARCH_422,
    via: ['search.q-required', 'search.q-length-256', 'search.max-operators', 'search.inaccessible-resources-422', 'search.app-user-issue-qualifier', 'search.code-requires-term'],
  },
  'search.q-length-256': { endpoints: SEARCH_422 },
  'search.max-operators': { endpoints: ['search.code', 'search.issues'] },
  'search.inaccessible-resources-422': { endpoints: ['search.code', 'search.issues'] },
  'search.partial-access-filtered': { endpoints: ['search.code', 'search.commits', 'search.issues', 'search.repositories'] },
  'search.app-user-issue-qualifier': { endpoints: ['search.issues'] },
  'search.code-requires-term': { endpoints: ['search.code'] },
  'search.code-default-branch': { endpoints: ['search.code'] },
  'search.code-file-size': { endpoints: ['search.code'] },
  'search.commits-default-branch': { endpoints: ['search.commits'] },
  'search.labels-repository-id': { endpoints: ['search.labels'] },
  'search.best-match-descending': { endpoints: SEARCH },
  'search.per-page-max-100': { endpoints: SEARCH },
  'search.reachable-1000': { endpoints: SEARCH },
  'search.text-match-opt-in': { endpoints: SEARCH, via: ['search.text-match-indices'] },
  'search.text-match-indices': { endpoints: SEARCH },
  'search.text-match-fields': { endpoints: SEARCH },

  // Notifications.
  'notifications.newest-first': { endpoints: ['notifications.list'] },
  'notifications.list-filters': { endpoints: NOTIFICATION_LISTS },
  'notifications.per-page-caps': { endpoints: NOTIFICATION_LISTS },
  'notifications.mark-read': { endpoints: ['notifications.mark-read'] },
  'notifications.repo-mark-read': { endpoints: ['notifications.repo-mark-read'] },
  'notifications.accepted-message': { endpoints: ['notifications.mark-read', 'notifications.repo-mark-read'] },
  'notifications.thread-mark-read': { endpoints: ['notifications.thread-mark-read'] },
  'notifications.subscription-ignore': { endpoints: ['notifications.subscription-set'] },
  'notifications.subscription-unignore': { endpoints: ['notifications.subscription-set'] },
  'notifications.subscription-delete': { endpoints: ['notifications.subscription-delete'] },
  'notifications.classic-only': { endpoints: area('notifications') },
  'notifications.scopes': { endpoints: area('notifications') },
  'notifications.repo-list-params': { endpoints: ['notifications.repo-list'] },
  'notifications.subscription-ignored-default': { endpoints: ['notifications.subscription-set'] },

  // Events.
  'events.age-90-days': { endpoints: EVENTS },
  'events.public-delay': { endpoints: ['events.public'] },
  'events.network-301': { endpoints: ['events.network'] },
  'events.user-private-own': { endpoints: ['events.user'] },
  'events.user-org-own': { endpoints: ['events.user-org'] },
  'events.received-public-only': { endpoints: ['events.received-public'] },
  'events.per-page-100': { endpoints: EVENTS },
  'events.paging': { endpoints: EVENTS },
  'events.public-only': { endpoints: ['events.public'] },
  'events.network-public-only': { endpoints: ['events.network'] },
  'events.org-public-only': { endpoints: ['events.org'] },
  'events.user-public-only': { endpoints: ['events.user-public'] },
  'events.received-private-own': { endpoints: ['events.received'] },
  'events.payload-shapes': { endpoints: EVENTS, via: ['resource.event'] },

  // Code scanning: a parameter's rule governs every listing the catalogue gives the parameter.
  'alerts.no-advanced-security-403': { endpoints: ['code-scanning.repo-alerts', 'code-scanning.alert'] },
  'alerts.update-archived-403': { endpoints: ['code-scanning.alert-update'] },
  'alerts.not-found-404': { endpoints: ['code-scanning.org-alerts', 'code-scanning.alert', 'code-scanning.alert-update'] },
  // The alert reads whose rows list 304 (the organization listing's lists 200, 404, 503).
  'alerts.not-modified-304': { endpoints: ['code-scanning.repo-alerts', 'code-scanning.alert'] },
  'alerts.repository-in-org-listing': { endpoints: ['code-scanning.org-alerts'] },
  'alerts.org-default-branch': { endpoints: ['code-scanning.org-alerts'] },
  'alerts.org-owner-or-security-manager': { endpoints: ['code-scanning.org-alerts'] },
  'alerts.state-filter': { endpoints: withParam('code-scanning', 'state') },
  'alerts.tool-filters': { endpoints: withParam('code-scanning', 'tool_name') },
  'alerts.tool-filters-exclusive': { endpoints: withParam('code-scanning', 'tool_guid') },
  'alerts.ref-filter': { endpoints: withParam('code-scanning', 'ref') },
  // The organization listing takes no `ref`, so only the first half governs it: with none requested,
  // most_recent_instance "describes the default branch" (the branch the listing "covers").
  'alerts.most-recent-instance-ref': { endpoints: ALERT_READS },
  'alerts.sort': { endpoints: withParam('code-scanning', 'sort') },
  'alerts.direction': { endpoints: withParam('code-scanning', 'direction') },
  'alerts.per-page': { endpoints: ids((e) => e.area === 'code-scanning' && !!e.perPage) },
  'alerts.cursors': { endpoints: withParam('code-scanning', 'after') },
  'alerts.page': { endpoints: withParam('code-scanning', 'page') },
  'alerts.classic-scopes': { endpoints: ['code-scanning.repo-alerts', 'code-scanning.alert'] },
  // The single-alert schema lists the added rule fields as required.
  'alerts.single-rule-fields': { endpoints: ['code-scanning.alert', 'code-scanning.alert-update'], via: ['resource.code-scanning-alert'] },
  'alerts.patch-states': { endpoints: ['code-scanning.alert-update'] },
  'alerts.dismiss-requires-reason': { endpoints: ['code-scanning.alert-update'] },
  'alerts.dismissed-reason-values': { endpoints: ALERTS },
  'alerts.dismiss': { endpoints: ['code-scanning.alert-update'] },
  'alerts.reopen': { endpoints: ['code-scanning.alert-update'] },

  // Imports.
  'imports.not-found-404': { endpoints: ids((e) => e.area === 'imports' && !!e.statuses?.includes(404)) },
  'imports.put-without-vcs-detecting': { endpoints: ['imports.start'] },
  'imports.put-with-vcs-importing': { endpoints: ['imports.start'] },
  'imports.vcs-url-required': { endpoints: ['imports.start'] },
  'imports.workflow-automation-422': { endpoints: ['imports.start'] },
  'imports.importing-then-mapping': { endpoints: ['imports.get'] },
  'imports.importing-progress': { endpoints: ['imports.get'] },
  'imports.push-percent': { endpoints: ['imports.get'] },
  'imports.record-fields': { endpoints: ['imports.get', 'imports.start', 'imports.update', 'imports.lfs'] },
  'imports.error-failed-step': { endpoints: ['imports.get'] },
  'imports.project-choices': { endpoints: ['imports.get'] },
  'imports.auth-failed-restart': { endpoints: ['imports.update'] },
  'imports.needs-auth-restart': { endpoints: ['imports.update'] },
  'imports.multiple-restart': { endpoints: ['imports.update'] },
  'imports.patch-restarts': { endpoints: ['imports.update'] },
  'imports.delete': { endpoints: ['imports.cancel'] },
  'imports.detecting-then-importing': { endpoints: ['imports.get'] },
  'imports.found-nothing-new-import': { endpoints: ['imports.cancel', 'imports.start'] },
  'imports.author-remap': { endpoints: ['imports.author-update'] },
  'imports.large-files-size': { endpoints: ['imports.get'] },
  'imports.large-files': { endpoints: ['imports.get'] },
  'imports.authors-since': { endpoints: ['imports.authors'] },
  'imports.author-validation': { endpoints: ['imports.author-update'] },
  'imports.lfs-validation': { endpoints: ['imports.lfs'] },

  // Permissions.
  'permissions.code-scanning': { endpoints: ALERTS },
  'permissions.imports-contents': { endpoints: IMPORTS },
  'permissions.uat-only': { endpoints: ids((e) => e.area === 'imports' && !!e.permission?.userToServerOnly) },
  'permissions.imports-token-kinds': { endpoints: IMPORTS },
};
