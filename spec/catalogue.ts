/**
 * Every method and path of both spec documents, as data. The reference routes from it, the
 * suites enumerate it and the proxy categorises requests with it; nothing restates it.
 */
import { LIMITS, type RateCategory } from './limits.js';
import { CONTENTS, PERMISSION_MATRIX } from './permissions.js';
import type { Method } from './vocabulary.js';

export type Area = 'search' | 'notifications' | 'events' | 'rate-limit' | 'code-scanning' | 'imports';

/**
 * What a write in each area may change, as reads of each area see it (a read of an area a write
 * does not list sees no change from it). Marking threads read and changing a subscription change
 * the notification listings (their Last-Modified). A source import pushes commits, and a push is an
 * event (PushEvent, CreateEvent); its commits become searchable, and whether a push notifies watchers
 * is not shown, so notifications count as changed too. A code scanning alert update changes alerts.
 * Which events exist beyond those three is not shown: a server that records a notification or alert
 * write as an event makes a poll waiting meanwhile see its timeline change, which is inconclusive,
 * never a failure (suites/not-modified.ts).
 */
export const WRITE_EFFECTS: Readonly<Record<Area, readonly Area[]>> = {
  search: [], events: [], 'rate-limit': [],
  notifications: ['notifications'],
  'code-scanning': ['code-scanning'],
  imports: ['imports', 'events', 'search', 'notifications'],
};
/** Who may call: anyone (public data), any authenticated caller, or only a classic personal access token. */
export type TokenRule = 'anonymous-ok' | 'token-required' | 'classic-only';
export type Access = 'read' | 'write';

export interface Param {
  name: string;
  in: 'path' | 'query' | 'body';
  type: 'string' | 'integer' | 'boolean' | 'timestamp' | 'string-or-null';
  required?: boolean;
  enum?: readonly string[];
  /** Default the spec states for the parameter. */
  default?: string;
}

export interface Endpoint {
  /** Stable operation id, e.g. `search.issues`. */
  id: string;
  doc: 1 | 2;
  area: Area;
  method: Method;
  /** Path template relative to the base URL (and below any prefix such as /api/v3). */
  path: string;
  params: readonly Param[];
  /** Listed status codes; `null` where the spec says "not shown". */
  statuses: readonly number[] | null;
  success: { status: number; schema: string | null; list?: boolean };
  /** Rate-limit category a request counts against; `null` when it is not counted. */
  category: RateCategory | null;
  perPage?: { max: number; default?: number };
  tokens: TokenRule;
  /** Permission for fine-grained and app tokens, named in X-Accepted-<Vendor>-Permissions. */
  permission?: { name: string; access: Access; userToServerOnly?: boolean };
  /** Classic-token scopes that satisfy the endpoint (any of them). */
  scopes?: readonly string[];
  writes: boolean;
}

const SEARCH_CAP = { max: LIMITS.search.maxPerPage };
const EVENTS_CAP = { max: LIMITS.events.maxPerPage };
const ALERTS_CAP = { max: LIMITS.codeScanning.maxPerPage, default: LIMITS.codeScanning.defaultPerPage };
const q = (name: string, type: Param['type'] = 'string', extra: Partial<Param> = {}): Param => ({ name, in: 'query', type, ...extra });
const p = (name: string, type: Param['type'] = 'string'): Param => ({ name, in: 'path', type, required: true });
const b = (name: string, type: Param['type'] = 'string', extra: Partial<Param> = {}): Param => ({ name, in: 'body', type, ...extra });
const PAGING = [q('per_page', 'integer'), q('page', 'integer')];
const SEARCH_PARAMS = [q('q', 'string', { required: true }), q('sort'), q('order'), ...PAGING];
const OWNER_REPO = [p('owner'), p('repo')];
const NOTIFY_FILTERS = [q('all', 'boolean'), q('participating', 'boolean'), q('since', 'timestamp'), q('before', 'timestamp'), ...PAGING];
const ALERT_FILTERS = [
  q('tool_name'), q('tool_guid', 'string-or-null'), q('before'), q('after'), ...PAGING,
  q('direction', 'string', { enum: ['asc', 'desc'], default: 'desc' }), q('state', 'string', { enum: ['open', 'dismissed', 'fixed'] }),
  q('sort', 'string', { enum: ['created', 'updated'], default: 'created' }),
];
const NOTIFICATION_SCOPES = ['notifications', 'repo'];
const ALERT_SCOPES = ['security_events', 'public_repo', 'repo'];
const IMPORT_SCOPES = ['repo'];

function search(id: string, path: string, schema: string, statuses: readonly number[] | null, extra: Param[] = []): Endpoint {
  return {
    id, doc: 1, area: 'search', method: 'GET', path, params: [...extra, ...SEARCH_PARAMS], statuses,
    success: { status: 200, schema }, category: 'search', perPage: SEARCH_CAP, tokens: 'anonymous-ok', writes: false,
  };
}

function events(id: string, path: string, statuses: readonly number[], params: Param[] = []): Endpoint {
  return {
    id, doc: 1, area: 'events', method: 'GET', path, params: [...params, ...PAGING], statuses,
    success: { status: 200, schema: 'event', list: true }, category: 'core', perPage: EVENTS_CAP, tokens: 'anonymous-ok', writes: false,
  };
}

function notifications(
  id: string, method: Method, path: string, params: Param[], statuses: readonly number[],
  success: Endpoint['success'], perPage?: Endpoint['perPage'],
): Endpoint {
  return {
    id, doc: 1, area: 'notifications', method, path, params, statuses, success, category: 'core',
    ...(perPage ? { perPage } : {}), tokens: 'classic-only', scopes: NOTIFICATION_SCOPES, writes: method !== 'GET',
  };
}

/** The permission of an endpoint the matrix lists: its one row for the method and path. */
function fromMatrix(method: Method, path: string): NonNullable<Endpoint['permission']> {
  const rows = PERMISSION_MATRIX.filter((r) => r.method === method && r.path === path);
  const row = rows[0];
  if (rows.length !== 1 || !row || row.access === 'admin') throw new Error(`the matrix has no single read or write row for ${method} ${path}`);
  return { name: row.permission, access: row.access, ...(row.uatOnly ? { userToServerOnly: true } : {}) };
}

function imports(id: string, method: Method, path: string, params: Param[], statuses: readonly number[], success: Endpoint['success']): Endpoint {
  const writes = method !== 'GET';
  const full = `/repos/{owner}/{repo}${path}`;
  return {
    id, doc: 2, area: 'imports', method, path: full, params: [...OWNER_REPO, ...params], statuses, success,
    category: 'core', tokens: 'token-required', scopes: IMPORT_SCOPES, writes,
    // The matrix lists the writes (Contents, [U]); its Contents read rows are not shown, so the
    // GETs take "Contents, read for GET endpoints" from the Authentication prose.
    permission: writes ? fromMatrix(method, full) : { name: CONTENTS, access: 'read' },
  };
}

export const CATALOGUE: readonly Endpoint[] = [
  // Document 1, Search.
  search('search.code', '/search/code', 'search-code', [200, 304, 403, 422, 503]),
  search('search.commits', '/search/commits', 'search-commits', [200, 304]),
  search('search.issues', '/search/issues', 'search-issues', [200, 304, 403, 422, 503]),
  search('search.labels', '/search/labels', 'search-labels', [200, 304, 403, 404, 422], [q('repository_id', 'integer', { required: true })]),
  search('search.repositories', '/search/repositories', 'search-repositories', null),

  // Document 1, Notifications.
  notifications('notifications.list', 'GET', '/notifications', NOTIFY_FILTERS, [200, 304, 401, 403, 422],
    { status: 200, schema: 'notification-thread', list: true },
    { max: LIMITS.notifications.maxPerPage, default: LIMITS.notifications.defaultPerPage }),
  notifications('notifications.mark-read', 'PUT', '/notifications', [b('last_read_at', 'timestamp'), b('read', 'boolean')],
    [202, 205, 304, 401, 403], { status: 205, schema: null }),
  notifications('notifications.thread', 'GET', '/notifications/threads/{thread_id}', [p('thread_id', 'integer')],
    [200, 304, 401, 403], { status: 200, schema: 'notification-thread' }),
  notifications('notifications.thread-mark-read', 'PATCH', '/notifications/threads/{thread_id}', [p('thread_id', 'integer')],
    [205, 304, 403], { status: 205, schema: null }),
  notifications('notifications.subscription', 'GET', '/notifications/threads/{thread_id}/subscription', [p('thread_id', 'integer')],
    [200, 304, 401, 403], { status: 200, schema: 'thread-subscription' }),
  notifications('notifications.subscription-set', 'PUT', '/notifications/threads/{thread_id}/subscription',
    [p('thread_id', 'integer'), b('ignored', 'boolean')], [200, 304, 401, 403], { status: 200, schema: 'thread-subscription' }),
  notifications('notifications.subscription-delete', 'DELETE', '/notifications/threads/{thread_id}/subscription',
    [p('thread_id', 'integer')], [204, 304, 401, 403], { status: 204, schema: null }),
  notifications('notifications.repo-list', 'GET', '/repos/{owner}/{repo}/notifications', [...OWNER_REPO, ...NOTIFY_FILTERS], [200],
    { status: 200, schema: 'notification-thread', list: true },
    { max: LIMITS.notifications.repoMaxPerPage, default: LIMITS.notifications.repoDefaultPerPage }),
  notifications('notifications.repo-mark-read', 'PUT', '/repos/{owner}/{repo}/notifications', [...OWNER_REPO, b('last_read_at', 'timestamp')],
    [202, 205], { status: 205, schema: null }),

  // Document 1, Events.
  events('events.public', '/events', [200, 304, 403, 503]),
  events('events.network', '/networks/{owner}/{repo}/events', [200, 301, 304, 403, 404], OWNER_REPO),
  events('events.org', '/orgs/{org}/events', [200], [p('org')]),
  events('events.repo', '/repos/{owner}/{repo}/events', [200], OWNER_REPO),
  events('events.user', '/users/{username}/events', [200], [p('username')]),
  events('events.user-org', '/users/{username}/events/orgs/{org}', [200], [p('username'), p('org')]),
  events('events.user-public', '/users/{username}/events/public', [200], [p('username')]),
  events('events.received', '/users/{username}/received_events', [200], [p('username')]),
  events('events.received-public', '/users/{username}/received_events/public', [200], [p('username')]),

  // Document 1, Rate limit: "Calling it does not count against the REST rate limit."
  {
    id: 'rate-limit.get', doc: 1, area: 'rate-limit', method: 'GET', path: '/rate_limit', params: [], statuses: [200, 304, 404],
    success: { status: 200, schema: 'rate-limit' }, category: null, tokens: 'anonymous-ok', writes: false,
  },

  // Document 2, Code scanning.
  {
    id: 'code-scanning.org-alerts', doc: 2, area: 'code-scanning', method: 'GET', path: '/orgs/{org}/code-scanning/alerts',
    params: [p('org'), ...ALERT_FILTERS], statuses: [200, 404, 503], success: { status: 200, schema: 'code-scanning-alert-org', list: true },
    category: 'core', perPage: ALERTS_CAP, tokens: 'token-required', scopes: ['repo', 'security_events'],
    permission: { name: 'security_events', access: 'read' }, writes: false,
  },
  {
    id: 'code-scanning.repo-alerts', doc: 2, area: 'code-scanning', method: 'GET', path: '/repos/{owner}/{repo}/code-scanning/alerts',
    params: [...OWNER_REPO, ...ALERT_FILTERS, q('ref')], statuses: [200, 304, 403, 404, 503],
    success: { status: 200, schema: 'code-scanning-alert', list: true }, category: 'core', perPage: ALERTS_CAP, tokens: 'token-required',
    scopes: ALERT_SCOPES, permission: { name: 'security_events', access: 'read' }, writes: false,
  },
  {
    id: 'code-scanning.alert', doc: 2, area: 'code-scanning', method: 'GET', path: '/repos/{owner}/{repo}/code-scanning/alerts/{alert_number}',
    params: [...OWNER_REPO, p('alert_number', 'integer')], statuses: [200, 304, 403, 404, 503],
    success: { status: 200, schema: 'code-scanning-alert-single' }, category: 'core', tokens: 'token-required', scopes: ALERT_SCOPES,
    permission: { name: 'security_events', access: 'read' }, writes: false,
  },
  {
    id: 'code-scanning.alert-update', doc: 2, area: 'code-scanning', method: 'PATCH',
    path: '/repos/{owner}/{repo}/code-scanning/alerts/{alert_number}',
    params: [...OWNER_REPO, p('alert_number', 'integer'), b('state', 'string', { required: true, enum: ['open', 'dismissed'] }),
      b('dismissed_reason', 'string-or-null')],
    statuses: [200, 403, 404, 503], success: { status: 200, schema: 'code-scanning-alert-single' }, category: 'core', tokens: 'token-required',
    scopes: ALERT_SCOPES, permission: { name: 'security_events', access: 'write' }, writes: true,
  },

  // Document 2, Source imports.
  imports('imports.get', 'GET', '/import', [], [200, 404, 503], { status: 200, schema: 'import' }),
  imports('imports.start', 'PUT', '/import',
    [b('vcs_url', 'string', { required: true }), b('vcs'), b('vcs_username'), b('vcs_password'), b('tfvc_project')],
    [201, 404, 422, 503], { status: 201, schema: 'import' }),
  imports('imports.update', 'PATCH', '/import', [b('vcs_username'), b('vcs_password'), b('vcs'), b('tfvc_project')],
    [200, 503], { status: 200, schema: 'import' }),
  imports('imports.cancel', 'DELETE', '/import', [], [204, 503], { status: 204, schema: null }),
  imports('imports.authors', 'GET', '/import/authors', [q('since', 'integer')], [200, 404, 503],
    { status: 200, schema: 'import-author', list: true }),
  imports('imports.author-update', 'PATCH', '/import/authors/{author_id}', [p('author_id', 'integer'), b('email'), b('name')],
    [200, 404, 422, 503], { status: 200, schema: 'import-author' }),
  imports('imports.large-files', 'GET', '/import/large_files', [], [200, 503], { status: 200, schema: 'large-file', list: true }),
  imports('imports.lfs', 'PATCH', '/import/lfs', [b('use_lfs', 'string', { required: true })], [200, 422, 503],
    { status: 200, schema: 'import' }),
];

export interface RouteMatch {
  endpoint: Endpoint;
  params: Record<string, string>;
}

interface CompiledRoute {
  endpoint: Endpoint;
  pattern: RegExp;
  names: string[];
}

const COMPILED: CompiledRoute[] = CATALOGUE.map((endpoint) => {
  const names: string[] = [];
  const source = endpoint.path.replace(/\./g, '\\.').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { endpoint, pattern: new RegExp(`^${source}/?$`), names };
});

/** Finds the endpoint for a method and a path (already stripped of any prefix). */
export function matchEndpoint(method: string, path: string): RouteMatch | undefined {
  for (const route of COMPILED) {
    if (route.endpoint.method !== method) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => { params[name] = decodeURIComponent(m[i + 1] ?? ''); });
    return { endpoint: route.endpoint, params };
  }
  return undefined;
}

export function endpointById(id: string): Endpoint {
  const found = CATALOGUE.find((e) => e.id === id);
  if (!found) throw new Error(`unknown endpoint id ${id}`);
  return found;
}
