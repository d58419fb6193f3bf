/**
 * Units that state server behaviour no requirement enforces (fully) yet, with the rule that is
 * missing. A ratchet: the test fails for an unmapped unit not listed here and for a listed unit
 * that has become mapped, so the list only shrinks.
 */
export interface Gap {
  unit: string;
  /** The rule no check enforces yet. */
  missing: string;
  /** Requirements that enforce part of the unit (the rest is `missing`). */
  partly?: readonly string[];
}

export const GAPS: readonly Gap[] = [
  // Document 1.
  { unit: 'd1.values.url-fields', missing: 'every field ending in _url is a string; the schemas type only the _url fields their field lists name', partly: ['resource.user', 'resource.repository'] },
  { unit: 'd1.search.code-statuses', missing: 'code search: 304 to a conditional request and 403 to a forbidden search are never provoked; no status outside the listed five is flagged', partly: ['search.validation-message'] },
  { unit: 'd1.search.commits-statuses', missing: 'commit search answers only 200 or 304: 304 to a conditional request is never provoked' },
  { unit: 'd1.search.issues-statuses', missing: 'issue search: 304 to a conditional request is never provoked', partly: ['search.validation-message', 'ratelimit.exhausted-403'] },
  { unit: 'd1.search.labels-statuses', missing: 'label search: 404 for a repository_id naming no repository, 403 and 304 are never provoked', partly: ['search.labels-repository-id'] },
  { unit: 'd1.auth.scopes', missing: 'a classic token lacking the scope an endpoint needs (notifications or repo; security_events or public_repo; repo for imports) is refused with 404 or 403; never tried', partly: ['auth.no-token-404-or-403'] },
  {
    unit: 'd1.auth.search-authenticated-kinds',
    missing: 'OAuth and client-ID-plus-secret callers get the authenticated search limit (30 a minute): the reference has no OAuth token and the profile no place for an app\'s client ID and secret, so only Basic login:token is read (rate-limit.search-per-minute.basic)',
    partly: ['ratelimit.search-per-minute'],
  },
  // Document 2.
  { unit: 'd2.errors.304', missing: 'a conditional GET of the alert listing or a single alert answers 304 when nothing changed; no check sends one' },
];
