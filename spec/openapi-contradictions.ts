/**
 * Where GitHub's published response examples (the api.github.com description of the pinned
 * @octokit/openapi package) break a rule the spec states, so the grader rightly fails them.
 * test/openapi-examples.test.ts expects every other example to pass, and every entry here to be used.
 */
export interface Contradiction {
  /** The example: `METHOD path status key`. */
  example: string;
  /** JSON pointer of the failure in the example. */
  path: string;
  message: string;
  reason: string;
}

export const OPENAPI_CONTRADICTIONS: readonly Contradiction[] = [
  {
    example: 'GET /rate_limit 200 default',
    path: '/resources',
    message: 'field "code_scanning_upload" absent where the spec states it present',
    reason: 'Document 1 states `resources` has the member code_scanning_upload (Rate-limit status; Limits: "Rate-limit categories are core, search, graphql, integration_manifest, code_scanning_upload"); the example lists other categories and not this one.',
  },
  {
    example: 'GET /search/issues 200 lexical-fallback',
    path: '/items/0',
    message: 'expected object, got string "..."',
    reason: 'Not a contradiction of the spec: the example elides its items as the string "...", so there is no issue record to grade.',
  },
];
