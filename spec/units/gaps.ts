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
  { unit: 'd1.service.anonymous-public', missing: 'an anonymous request for public data (search, events, rate limit) answers 200; anonymous requests appear only as controls' },
  { unit: 'd1.values.url-fields', missing: 'every field ending in _url is a string; the schemas type only the _url fields their field lists name', partly: ['resource.user', 'resource.repository'] },
  { unit: 'd1.text-match.object-url', missing: 'text_matches[].object_url is the URL of the resource holding the matched property; text_matches items are never validated against their schema' },
  { unit: 'd1.text-match.object-type', missing: 'text_matches[].object_type is the type name of that resource (never validated)' },
  { unit: 'd1.text-match.property', missing: 'text_matches[].property names a matched string property of that resource (never validated)' },
  { unit: 'd1.text-match.fragment', missing: 'text_matches[].fragment is a substring of that property\'s value containing the match (only indices inside fragment are checked)', partly: ['search.text-match-indices'] },
  { unit: 'd1.search.code-statuses', missing: 'code search: 304 to a conditional request and 403 to a forbidden search are never provoked; no status outside the listed five is flagged', partly: ['search.validation-message'] },
  { unit: 'd1.search.commits-statuses', missing: 'commit search answers only 200 or 304: 304 to a conditional request is never provoked' },
  { unit: 'd1.search.issues-statuses', missing: 'issue search: 304 to a conditional request is never provoked', partly: ['search.validation-message', 'ratelimit.exhausted-403'] },
  { unit: 'd1.search.labels-statuses', missing: 'label search: 404 for a repository_id naming no repository, 403 and 304 are never provoked', partly: ['search.labels-repository-id'] },
  { unit: 'd1.search.text-match-properties', missing: 'which properties each search kind supplies matches for (code: content and path; commits: message; issues: title, body, comment body; labels and repositories: name and description); only issue search is asked for text matches and the property is never compared', partly: ['search.text-match-opt-in'] },
  { unit: 'd1.notifications.scopes', missing: 'a classic token holding neither the notifications nor the repo scope is refused on the notification endpoints; never tried', partly: ['notifications.classic-only'] },
  { unit: 'd1.notifications.list-participating', missing: 'participating=true lists only threads the user participates in (default false); never tried' },
  { unit: 'd1.notifications.list-defaults', missing: '/notifications without per_page answers at most 50 threads, and page defaults to 1; only the maximum 50 is checked', partly: ['notifications.per-page-caps'] },
  { unit: 'd1.notifications.repo-list-row', missing: 'the repository variant of the notification list: default per_page 30 and page 1, the all / participating / since / before filters, and listing only that repository\'s threads; only its maximum 100 and its schema are checked', partly: ['notifications.per-page-caps', 'resource.notification-thread'] },
  { unit: 'd1.states.mark-all-read', missing: 'PUT /notifications reads every thread updated at or before last_read_at (all of them without it) and leaves later ones unread, answering 205 or 202 with a message: no check sends PUT /notifications; the check of notifications.mark-read runs this rule on the repository variant', partly: ['notifications.mark-read'] },
  { unit: 'd1.states.mark-repo-read', missing: 'PUT /repos/{owner}/{repo}/notifications reads only that repository\'s threads (threads of other repositories stay unread): never checked; notifications.repo-mark-read has no check of its own, the read-up-to-last_read_at part is checked under notifications.mark-read', partly: ['notifications.repo-mark-read', 'notifications.mark-read'] },
  { unit: 'd1.notifications.mark-read-row', missing: 'PUT /notifications with last_read_at (default now) and read: never sent; its 202 body {message} and 205 empty body are checked on the repository variant only', partly: ['notifications.accepted-message'] },
  { unit: 'd1.events.user-row', missing: 'GET /users/{username}/events includes the user\'s private events when authenticated as that user; only their absence for other callers is checked', partly: ['events.user-private-own'] },
  { unit: 'd1.events.public-only', missing: 'GET /events lists public events only (public is true); only its five-minute delay is checked', partly: ['events.public-delay'] },
  { unit: 'd1.events.network-public', missing: 'the network timeline lists public events only; only its 301 is checked', partly: ['events.network-301'] },
  { unit: 'd1.events.org-row', missing: 'GET /orgs/{org}/events lists public organization events only; only its schema is checked', partly: ['resource.event'] },
  { unit: 'd1.events.repo-anonymous', missing: 'an anonymous caller reads a public repository\'s events (200); never asserted' },
  { unit: 'd1.events.user-public-row', missing: 'GET /users/{username}/events/public lists public events only, even to that user; only its schema is checked', partly: ['resource.event'] },
  { unit: 'd1.events.received-row', missing: 'received_events shows private events only to the authenticated user: another caller or an anonymous one sees none; only its page cap and schema are checked', partly: ['events.per-page-100', 'resource.event'] },
  { unit: 'd1.auth.scopes', missing: 'a classic token lacking the scope an endpoint needs (notifications or repo; security_events or public_repo; repo for imports) is refused with 404 or 403; never tried', partly: ['auth.no-token-404-or-403'] },
  { unit: 'd1.auth.search-authenticated-kinds', missing: 'basic, OAuth and client-ID-plus-secret callers get the authenticated search limit (30 a minute); only a classic token\'s limit is read' },
  { unit: 'd1.errors.inaccessible-qualifiers', missing: 'user: and org: qualifiers naming an account the caller cannot access (or that does not exist) answer 422; only repo: is tried, on issue search only', partly: ['search.inaccessible-resources-422'] },
  // Document 2.
  { unit: 'd2.import-states.detection-ends', missing: 'an import started without vcs leaves detecting for importing once the type is found, with commit_count and percent; no check follows it past detecting', partly: ['imports.put-without-vcs-detecting'] },
  { unit: 'd2.import-states.found-nothing', missing: 'from detection_found_nothing, DELETE then PUT with a correct URL starts a new import; never tried' },
  { unit: 'd2.imports.authors-404', missing: 'GET /import/authors with no import answers 404; imports.not-found-404 tries GET /import only' },
  { unit: 'd2.imports.author-patch-404', missing: 'PATCH /import/authors/{author_id} naming no author answers 404; never tried' },
  { unit: 'd2.imports.remap-before-push', missing: 'remapping an author is accepted (200) at any point before new commits are pushed; only a refused non-string email is checked', partly: ['imports.author-validation'] },
  { unit: 'd2.imports.mapping-supplies', missing: 'after PATCH of an author, the author (and later listings) carry the name and email given; never compared' },
  { unit: 'd2.auth.alert-scopes', missing: 'classic scopes on code scanning: security_events reaches private repositories, public_repo public ones only (refused on private); never tried' },
  { unit: 'd2.errors.304', missing: 'a conditional GET of the alert listing or a single alert answers 304 when nothing changed; no check sends one' },
];
