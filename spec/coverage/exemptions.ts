/**
 * (requirement, endpoint) pairs no check covers: those that cannot be checked, each with its reason,
 * and the ratchet of those nobody checks yet. The coverage test fails for an uncovered pair in
 * neither list and for a pair of either list that has become covered, so KNOWN_UNCOVERED only shrinks.
 */
import { CATALOGUE } from '../catalogue.js';
import type { ReasonKind } from '../units/types.js';

export interface PairReason {
  kind: ReasonKind;
  why: string;
}

const IMPORT_IDS = CATALOGUE.filter((e) => e.area === 'imports').map((e) => e.id);

/** requirement -> endpoint -> why the pair cannot be checked over HTTP. */
export const PAIR_REASONS: Readonly<Record<string, Readonly<Record<string, PairReason>>>> = {
  'imports.retired-503': Object.fromEntries(IMPORT_IDS.map((id) => [id, {
    kind: 'not-inducible', why: 'a 503 "unavailable due to maintenance" comes from the service\'s maintenance, which a client cannot bring about',
  } as PairReason])),
};

/** requirement -> governed endpoints that no check requests yet (the ratchet). */
export const KNOWN_UNCOVERED: Readonly<Record<string, readonly string[]>> = {
  'auth.bearer-and-token-schemes': [
    'search.code', 'search.commits', 'search.issues', 'search.labels', 'search.repositories', 'notifications.mark-read',
    'notifications.thread-mark-read', 'notifications.subscription-delete', 'notifications.repo-mark-read', 'imports.start',
    'imports.update', 'imports.cancel', 'imports.lfs',
  ],
  // The lockout suite runs last, when no import is left to read (the permissions suite deletes its own) and starting one there would be a write of its own.
  'auth.password-rejected': [
    'notifications.mark-read', 'notifications.thread-mark-read', 'notifications.subscription-delete', 'notifications.repo-mark-read',
    'imports.get', 'imports.start', 'imports.update', 'imports.cancel', 'imports.authors', 'imports.author-update', 'imports.large-files', 'imports.lfs',
  ],
  'auth.invalid-credentials-401': [
    'notifications.mark-read', 'notifications.thread-mark-read', 'notifications.subscription-delete',
    'notifications.repo-mark-read', 'imports.start', 'imports.update', 'imports.cancel', 'imports.lfs',
  ],
  'auth.no-token-404-or-403': [
    'notifications.list', 'notifications.mark-read', 'notifications.thread', 'notifications.thread-mark-read',
    'notifications.subscription', 'notifications.subscription-set', 'notifications.subscription-delete', 'notifications.repo-list',
    'notifications.repo-mark-read', 'imports.start', 'imports.update', 'imports.cancel', 'imports.lfs',
  ],
  'auth.lockout-403': [
    'notifications.mark-read', 'notifications.thread-mark-read', 'notifications.subscription-delete', 'notifications.repo-mark-read',
    'imports.get', 'imports.start', 'imports.update', 'imports.cancel', 'imports.authors', 'imports.author-update', 'imports.large-files', 'imports.lfs',
  ],
  'auth.sso-403-header': ['events.org', 'events.user-org'],
  'auth.sso-partial-results': ['search.code', 'search.commits', 'search.repositories'],
  'errors.message': [
    'notifications.mark-read', 'notifications.thread-mark-read', 'notifications.subscription-delete',
    'notifications.repo-mark-read', 'imports.start', 'imports.update', 'imports.cancel', 'imports.lfs',
  ],
  'versioning.listed-versions': [
    'search.code', 'search.commits', 'search.issues', 'search.labels', 'search.repositories', 'notifications.mark-read',
    'notifications.thread-mark-read', 'notifications.subscription-delete', 'notifications.repo-mark-read', 'imports.start',
    'imports.update', 'imports.cancel', 'imports.lfs',
  ],
  'versioning.media-types': [
    'search.code', 'search.commits', 'search.issues', 'search.labels', 'search.repositories', 'notifications.mark-read',
    'notifications.thread-mark-read', 'notifications.subscription-delete', 'notifications.repo-mark-read', 'imports.start',
    'imports.update', 'imports.cancel', 'imports.lfs',
  ],
  'ratelimit.core-non-search': [
    'notifications.mark-read', 'notifications.thread-mark-read', 'notifications.subscription-delete', 'notifications.repo-mark-read',
    'imports.start', 'imports.update', 'imports.cancel', 'imports.lfs',
  ],
  'auth.anonymous-public-data': ['search.issues'],
  'auth.sso-fine-grained-app': ['code-scanning.org-alerts', 'events.user-org'],
  'errors.not-found': ['search.labels'],
  'ratelimit.304-not-counted': [
    'events.public', 'events.network', 'events.org', 'events.user', 'events.user-org', 'events.user-public', 'events.received',
    'events.received-public', 'notifications.list', 'notifications.thread', 'notifications.subscription', 'notifications.repo-list',
  ],
  'cond.last-modified-304': ['notifications.thread', 'notifications.subscription'],
  'resource.timestamps': ['notifications.subscription-set', 'code-scanning.alert-update'],
  'resource.user': ['code-scanning.alert-update'],
  'resource.thread-subscription': ['notifications.subscription-set'],
  'resource.code-scanning-alert': ['code-scanning.alert-update'],
  'resource.import': ['imports.update', 'imports.lfs'],
  'resource.import-author': ['imports.author-update'],
  'search.q-required': ['search.code', 'search.commits', 'search.labels', 'search.repositories'],
  'search.validation-message': ['search.labels'],
  'search.q-length-256': ['search.labels'],
  'search.inaccessible-resources-422': ['search.code'],
  'search.partial-access-filtered': ['search.code', 'search.commits', 'search.repositories'],
  'search.per-page-max-100': ['search.labels', 'search.repositories'],
  'search.reachable-1000': ['search.code', 'search.commits', 'search.labels', 'search.repositories'],
  'search.text-match-indices': ['search.code', 'search.commits', 'search.labels', 'search.repositories'],
  'notifications.classic-only': [
    'notifications.mark-read', 'notifications.thread-mark-read', 'notifications.subscription-set', 'notifications.subscription-delete',
    'notifications.repo-mark-read',
  ],
  'notifications.scopes': [
    'notifications.mark-read', 'notifications.thread', 'notifications.thread-mark-read', 'notifications.subscription',
    'notifications.subscription-set', 'notifications.subscription-delete', 'notifications.repo-mark-read',
  ],
  'events.age-90-days': ['events.public', 'events.org', 'events.user-org', 'events.received', 'events.received-public'],
  'alerts.no-advanced-security-403': ['code-scanning.alert'],
  'alerts.most-recent-instance-ref': ['code-scanning.org-alerts'],
  'alerts.single-rule-fields': ['code-scanning.alert-update'],
  'alerts.dismissed-reason-values': ['code-scanning.org-alerts'],
  'imports.record-fields': ['imports.update', 'imports.lfs'],
};
