import { req } from './types.js';

/** Rules of the events area, each quoting its spec sentence. */
export const EVENTS = [
  req('events.age-90-days', 'MUST', 1, 'Events', 'Timelines contain only events from the past 90 days, even when fewer than 300 events exist.'),
  req('events.public-delay', 'MUST', 1, 'Events', '/events | none | 200, 304, 403, 503 | public events, delayed by five minutes'),
  req('events.network-301', 'MUST', 1, 'Errors', '301 | Moved permanently (network events)'),
  req('events.user-private-own', 'MUST', 1, 'Events', '/users/{username}/events | username | 200 | private events included when authenticated as that user'),
  req('events.user-org-own', 'MUST', 1, 'Events', "/users/{username}/events/orgs/{org} | username, org | 200 | the user's organization dashboard; only the authenticated user"),
  req('events.received-public-only', 'MUST', 1, 'Events', '/users/{username}/received_events/public | username | 200 | public only'),
  req('events.public-only', 'MUST', 1, 'Events', '/events | none | 200, 304, 403, 503 | public events'),
  req('events.network-public-only', 'MUST', 1, 'Events', '/networks/{owner}/{repo}/events | owner, repo | 200, 301, 304, 403, 404 | public events of a repository network'),
  req('events.org-public-only', 'MUST', 1, 'Events', '/orgs/{org}/events | org | 200 | public organization events'),
  req('events.user-public-only', 'MUST', 1, 'Events', '/users/{username}/events/public | username | 200 | public only'),
  req('events.received-private-own', 'MUST', 1, 'Events',
    '/users/{username}/received_events | username | 200 | events from watched repositories and followed users; private ones only for the authenticated user'),
  req('events.paging', 'MUST', 1, 'Events', 'All are GET, take `per_page` (max 100) and `page`, and return an array of event records.'),
  req('events.per-page-100', 'MUST', 1, 'Limits', 'Event page size | max 100'),
  req('events.payload-shapes', 'MUST', 1, 'Event record',
    'Payload shapes seen: WatchEvent {action}; PushEvent {push_id integer, size integer, distinct_size integer, ref, head, before, commits [ {sha, author {email, name}, message, distinct boolean, url} ]}; CreateEvent {ref (nullable), ref_type, master_branch, description (nullable), pusher_type}.'),
];
