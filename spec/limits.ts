/** Numbers the spec states (document 1 "Limits", document 2 where noted). Each lives here once. */
export const LIMITS = {
  search: {
    perMinuteAuthenticated: 30,
    perMinuteAnonymous: 10,
    reachableResults: 1000,
    maxPerPage: 100,
    maxQueryLength: 256,
    maxOperators: 5,
    maxCodeFileBytes: 384 * 1024,
  },
  notifications: { maxPerPage: 50, defaultPerPage: 50, repoMaxPerPage: 100, repoDefaultPerPage: 30 },
  events: { maxPerPage: 100, maxAgeDays: 90, publicDelayMinutes: 5 },
  codeScanning: { maxPerPage: 100, defaultPerPage: 30 },
  installationTokenLifetimeMinutes: 60,
  ssoUrlLifetimeMinutes: 60,
  imports: { largeFileBytes: 100 * 1024 * 1024, retiredAt: '2024-04-12T00:00:00Z' },
} as const;

/** "Rate-limit categories are core (all non-search REST), search, graphql, integration_manifest, code_scanning_upload." */
export const RATE_CATEGORIES = ['core', 'search', 'graphql', 'integration_manifest', 'code_scanning_upload'] as const;
export type RateCategory = (typeof RATE_CATEGORIES)[number];

/** The spec's search operators: "more than five AND, OR or NOT operators" is a 422. */
export const SEARCH_OPERATORS = ['AND', 'OR', 'NOT'] as const;

/** Qualifiers that name resources: inaccessible ones give 422, partly accessible sets are filtered silently. */
export const RESOURCE_QUALIFIERS = ['repo', 'user', 'org'] as const;
