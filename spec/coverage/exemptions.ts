/**
 * (requirement, endpoint) pairs no check covers: those that cannot be checked, each with its reason,
 * and the ratchet of those nobody checks yet. The coverage test fails for an uncovered pair in
 * neither list and for a pair of either list that has become covered, so KNOWN_UNCOVERED only shrinks.
 */
import type { ReasonKind } from '../units/types.js';

export interface PairReason {
  kind: ReasonKind;
  why: string;
}

/** requirement -> endpoint -> why the pair cannot be checked over HTTP. */
export const PAIR_REASONS: Readonly<Record<string, Readonly<Record<string, PairReason>>>> = {
};

/** requirement -> governed endpoints that no check requests yet (the ratchet). */
export const KNOWN_UNCOVERED: Readonly<Record<string, readonly string[]>> = {
  'auth.password-rejected': [
    'search.code', 'search.commits', 'search.issues', 'search.labels', 'search.repositories', 'notifications.mark-read',
    'notifications.thread', 'notifications.thread-mark-read', 'notifications.subscription', 'notifications.subscription-set',
    'notifications.subscription-delete', 'notifications.repo-list', 'notifications.repo-mark-read', 'events.network', 'events.org',
    'events.repo', 'events.user', 'events.user-org', 'events.user-public', 'events.received', 'events.received-public',
    'rate-limit.get', 'code-scanning.org-alerts', 'code-scanning.repo-alerts', 'code-scanning.alert', 'code-scanning.alert-update',
    'imports.get', 'imports.start', 'imports.update', 'imports.cancel', 'imports.authors', 'imports.author-update',
    'imports.large-files', 'imports.lfs',
  ],
  'auth.lockout-403': [
    'search.code', 'search.commits', 'search.issues', 'search.labels', 'search.repositories', 'notifications.mark-read',
    'notifications.thread', 'notifications.thread-mark-read', 'notifications.subscription', 'notifications.subscription-set',
    'notifications.subscription-delete', 'notifications.repo-list', 'notifications.repo-mark-read', 'events.public', 'events.network',
    'events.org', 'events.repo', 'events.user', 'events.user-org', 'events.user-public', 'events.received', 'events.received-public',
    'rate-limit.get', 'code-scanning.org-alerts', 'code-scanning.repo-alerts', 'code-scanning.alert', 'code-scanning.alert-update',
    'imports.get', 'imports.start', 'imports.update', 'imports.cancel', 'imports.authors', 'imports.author-update', 'imports.large-files',
    'imports.lfs',
  ],
  'ratelimit.search-separate': ['search.code', 'search.commits', 'search.issues', 'search.labels'],
  'ratelimit.search-per-minute': ['search.code', 'search.commits', 'search.issues', 'search.labels', 'search.repositories'],
  'ratelimit.core-non-search': [
    'notifications.list', 'notifications.mark-read', 'notifications.thread', 'notifications.thread-mark-read',
    'notifications.subscription', 'notifications.subscription-set', 'notifications.subscription-delete', 'notifications.repo-list',
    'notifications.repo-mark-read', 'events.network', 'events.org', 'events.repo', 'events.user', 'events.user-org',
    'events.user-public', 'events.received', 'events.received-public', 'code-scanning.org-alerts', 'code-scanning.repo-alerts',
    'code-scanning.alert', 'code-scanning.alert-update', 'imports.get', 'imports.start', 'imports.update', 'imports.cancel',
    'imports.authors', 'imports.author-update', 'imports.large-files', 'imports.lfs',
  ],
  'ratelimit.exhausted-403': ['search.code', 'search.commits', 'search.issues', 'search.labels'],
  'search.per-page-max-100': ['search.repositories'],
  'search.reachable-1000': ['search.repositories'],
};
