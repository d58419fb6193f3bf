/** The catalogue of named faults, as data: the pipeline's own plus each area's. */
import { CATALOGUE } from '../spec/catalogue.js';
import { GOVERNS } from '../spec/coverage/governs.js';
import type { Fault } from './fault.js';
import { AREAS } from './areas/index.js';
import { perEndpointFaults } from './endpoint-faults.js';

/** Endpoints that admit no caller without a token (reference/policy.ts admit). */
const NEED_A_TOKEN = CATALOGUE.filter((e) => e.tokens !== 'anonymous-ok').map((e) => e.id);

/** Endpoints that need write access (the permission header names the write level there). */
const WRITE_ENDPOINTS = CATALOGUE.filter((e) => e.permission?.access === 'write').map((e) => e.id);

/** Faults of the shared conventions (authentication, versioning, rate-limit headers, conditional requests, errors, shared resources). */
const CONVENTION_FAULTS: Fault[] = [
  { id: 'auth-token-scheme-refused', requirement: 'auth.bearer-and-token-schemes', effect: 'The `token <TOKEN>` scheme is answered 401.' },
  { id: 'auth-bearer-scheme-refused', requirement: 'auth.bearer-and-token-schemes', effect: 'The `Bearer <TOKEN>` scheme is answered 401.' },
  { id: 'auth-password-accepted', requirement: 'auth.password-rejected', effect: 'Basic username:password is accepted as if it were a token.' },
  { id: 'auth-invalid-token-anonymous', requirement: 'auth.invalid-credentials-401', effect: 'An unknown token is served as an anonymous request: 200 wherever anonymous callers are admitted.' },
  { id: 'auth-password-anonymous', requirement: 'auth.password-rejected', effect: 'Basic login:password is served as an anonymous request: 200 wherever anonymous callers are admitted.' },
  { id: 'auth-invalid-403-first', requirement: 'auth.invalid-credentials-401', effect: 'Invalid credentials are answered 403 from the first attempt.' },
  { id: 'auth-invalid-as-anonymous', requirement: 'auth.invalid-credentials-401', effect: 'Invalid credentials are ignored: the request is answered as if it carried none.' },
  { id: 'auth-no-lockout', requirement: 'auth.lockout-403', effect: 'Repeated invalid attempts never lock the user out.' },
  { id: 'auth-lockout-spares-valid-token', requirement: 'auth.lockout-403', effect: 'During a lockout, valid tokens of the locked-out user are still accepted.' },
  { id: 'auth-no-accepted-permissions', requirement: 'auth.accepted-permissions-header', effect: 'X-Accepted-<Vendor>-Permissions is never sent.' },
  { id: 'auth-sso-blocks-fine-grained', requirement: 'auth.sso-fine-grained-app', effect: 'Fine-grained and app user tokens are refused by single sign-on like a classic token never authorized.' },
  { id: 'auth-sso-no-header', requirement: 'auth.sso-403-header', effect: 'The single sign-on 403 lacks the X-<Vendor>-SSO header.' },
  { id: 'errors-401-no-message', requirement: 'errors.message', effect: '401 bodies carry `error` instead of `message`.' },
  { id: 'errors-403-no-message', requirement: 'errors.message', effect: '403 bodies carry `error` instead of `message`.' },
  { id: 'auth-sso-unenforced', requirement: 'auth.sso-403-header', effect: 'A token not authorized for a single sign-on organization reads its data as if it were.' },
  { id: 'errors-no-message', requirement: 'errors.message', effect: 'Error bodies carry `error` instead of `message`.' },
  { id: 'versioning-old-version-refused', requirement: 'versioning.listed-versions', effect: 'A request naming API version 2022-11-28 is refused with 400.' },
  { id: 'versioning-new-version-refused', requirement: 'versioning.listed-versions', effect: 'A request naming API version 2026-03-10 is refused with 400.' },
  { id: 'versioning-v3-media-refused', requirement: 'versioning.media-types', effect: 'The older v3 media type is refused with 415.' },
  { id: 'ratelimit-endpoint-counted', requirement: 'ratelimit.endpoint-not-counted', effect: 'GET /rate_limit counts against core.' },
  { id: 'ratelimit-events-not-counted', requirement: 'ratelimit.core-non-search', effect: 'Event timeline requests count against no rate limit.', endpoints: CATALOGUE.filter((e) => e.area === 'events').map((e) => e.id) },
  { id: 'ratelimit-core-not-counted', requirement: 'ratelimit.core-non-search', effect: 'Requests to core (non-search) endpoints count against no rate limit.' },
  { id: 'ratelimit-search-shares-core', requirement: 'ratelimit.search-separate', effect: 'Search requests count against core, not search.' },
  { id: 'ratelimit-search-limit-60', requirement: 'ratelimit.search-per-minute', effect: 'Authenticated search allows 60 requests a minute.' },
  { id: 'ratelimit-anonymous-search-limit-30', requirement: 'ratelimit.search-per-minute', effect: 'Anonymous search allows 30 requests a minute (and reports it).' },
  { id: 'ratelimit-304-counted', requirement: 'ratelimit.304-not-counted', effect: '304 answers consume the rate limit.' },
  { id: 'ratelimit-exhausted-429', requirement: 'ratelimit.exhausted-403', effect: 'Exhaustion is answered 429 instead of 403.' },
  { id: 'schema-user-id-string', requirement: 'resource.user', effect: 'User objects carry `id` as a string.' },
  { id: 'schema-repository-private-string', requirement: 'resource.repository', effect: 'Embedded repositories carry `private` as a string.' },
  { id: 'auth-no-token-admitted', requirement: 'auth.no-token-404-or-403', effect: 'Endpoints that need a token serve callers without one, as the account of the classic token.', endpoints: NEED_A_TOKEN },
  { id: 'auth-private-repo-open', requirement: 'auth.no-token-404-or-403', effect: "A private repository's events answer 200 to callers who cannot read it, anonymous included.", endpoints: ['events.repo'] },
  { id: 'notifications-any-token', requirement: 'notifications.classic-only', effect: 'Notification endpoints admit fine-grained and app tokens.' },
  { id: 'schema-subscription-ignored-string', requirement: 'resource.thread-subscription', effect: 'Thread subscriptions carry `ignored` as a string.' },
  { id: 'schema-import-has-large-files-string', requirement: 'resource.import', effect: 'Import records carry `has_large_files` as a string.' },
  { id: 'schema-import-author-id-string', requirement: 'resource.import-author', effect: 'Import authors carry `id` as a string.' },
  { id: 'schema-large-file-size-string', requirement: 'resource.large-file', effect: 'Large files carry `size` as a string.' },
  { id: 'schema-code-item-score-string', requirement: 'resource.code-item', effect: 'Code search items carry `score` as a string.' },
  { id: 'schema-commit-comment-count-string', requirement: 'resource.commit-item', effect: 'Commit search items carry `commit.comment_count` as a string.' },
  { id: 'schema-label-item-default-string', requirement: 'resource.label-item', effect: 'Label search items carry `default` as a string.' },
  { id: 'schema-issue-number-string', requirement: 'resource.issue-item', effect: 'Issue search items carry `number` as a string.' },
  { id: 'schema-event-public-string', requirement: 'resource.event', effect: 'Events carry `public` as a string.' },
  { id: 'schema-alert-number-string', requirement: 'resource.code-scanning-alert', effect: 'Code scanning alerts carry `number` as a string.' },
  { id: 'schema-org-alert-repository-name', requirement: 'resource.code-scanning-alert-org', effect: 'The organization listing gives `repository` as its full name, not a repository object.' },
  { id: 'schema-repository-description-null', requirement: 'resource.repository', effect: 'Embedded repositories carry `description: null` (nullability not shown: a warning).' },
  { id: 'values-url-fields-objects', requirement: 'resource.url-fields', effect: 'Every field ending in `_url` is a link object {href}, not a string.' },
  { id: 'timestamps-with-milliseconds', requirement: 'resource.timestamps', effect: 'Every timestamp in a response body carries milliseconds (YYYY-MM-DDTHH:MM:SS.000Z).' },
  { id: 'cond-etag-unquoted', requirement: 'cond.etag-quoted', effect: 'ETag values are sent without the required quotes.' },
  { id: 'cond-if-none-match-ignored', requirement: 'cond.etag-304', effect: 'A matching If-None-Match is answered 200, never 304.' },
  { id: 'cond-etag-unstable', requirement: 'cond.etag-304', effect: 'The ETag changes with every answer, so an unchanged resource never matches If-None-Match.' },
  { id: 'cond-last-modified-now', requirement: 'cond.last-modified-304', effect: 'Last-Modified is the time of answering, so sending it back never yields a 304.' },
  { id: 'cond-if-modified-since-ignored', requirement: 'cond.last-modified-304', effect: 'A matching If-Modified-Since is answered 200, never 304.' },
];

/** Faults of the permissions fine-grained and app tokens need (reference/policy.ts), each breaking one rule. */
const PERMISSION_FAULTS: Fault[] = [
  { id: 'permissions-security-events-ignored', requirement: 'permissions.code-scanning', effect: 'Code scanning admits fine-grained and app tokens that lack security_events.' },
  { id: 'permissions-read-admits-write', requirement: 'permissions.code-scanning', effect: 'security_events=read suffices to update an alert.', endpoints: ['code-scanning.alert-update'] },
  { id: 'permissions-contents-ignored', requirement: 'permissions.imports-contents', effect: 'Import endpoints admit fine-grained and app tokens that lack contents.' },
  { id: 'permissions-imports-reads-refuse-classic', requirement: 'permissions.imports-token-kinds', effect: 'The import reads hold classic tokens to the fine-grained rule (contents=read), which no classic token holds: 403.', endpoints: ['imports.get', 'imports.authors', 'imports.large-files'] },
  { id: 'permissions-uat-only-ignored', requirement: 'permissions.uat-only', effect: 'An installation token holding contents=write may call the [U] import endpoints.' },
  { id: 'permissions-header-wrong', requirement: 'auth.accepted-permissions-header', effect: 'X-Accepted-<Vendor>-Permissions names the read level on write endpoints too.', endpoints: WRITE_ENDPOINTS },
];

const UNSCOPED: readonly Fault[] = [...CONVENTION_FAULTS, ...PERMISSION_FAULTS, ...AREAS.flatMap((a) => a.faults)];

export const FAULTS: readonly Fault[] = [...UNSCOPED, ...perEndpointFaults(UNSCOPED)];

/**
 * Faults no check catches yet, each with the check that is missing. The per-fault tests expect them
 * uncaught, so an entry goes when its check lands (the list only shrinks).
 */
export const KNOWN_ESCAPES: Readonly<Record<string, string>> = {
};

/** Where each fault is tested from: its area, or the shared pipeline's conventions and permissions. */
export const FAULT_GROUPS: Readonly<Record<string, readonly Fault[]>> = {
  conventions: CONVENTION_FAULTS,
  permissions: PERMISSION_FAULTS,
  ...Object.fromEntries(AREAS.map((a) => [a.area, a.faults])),
};

const AREA_OF_FAULT = new Map(AREAS.flatMap((a) => a.faults.map((f) => [f.id, a.area])));

/**
 * The governed endpoints where a fault breaks its rule: those it declares, else every endpoint its
 * requirement governs (an area's fault: only those of its area, the only ones its handlers answer).
 */
export function brokenEndpoints(fault: Fault): readonly string[] {
  const governed = GOVERNS[fault.requirement]?.endpoints ?? [];
  const area = AREA_OF_FAULT.get(fault.id);
  const inArea = area ? new Set(CATALOGUE.filter((e) => e.area === area).map((e) => e.id)) : undefined;
  return governed.filter((e) => (fault.endpoints ? fault.endpoints.includes(e) : !inArea || inArea.has(e)));
}

/** Validates fault names; throws naming the unknown ones. */
export function resolveFaults(names: readonly string[]): Set<string> {
  const known = new Set(FAULTS.map((f) => f.id));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) throw new Error(`unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (see \`conformance faults\`)`);
  return new Set(names);
}
