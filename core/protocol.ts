/** The headers by which the proxy and its clients talk about the proxy itself; none is stored in a fixture. */

/** Request header naming the session whose sequence positions (and synthesized counters) a request uses. */
export const SESSION_HEADER = 'x-conformance-session';
/** Response header saying how the proxy answered: replayed, recorded, forwarded, synthesized, unmatched, upstream-error, outside-prefix, error. */
export const PROXY_HEADER = 'x-conformance-proxy';
/** Response header naming the fixture file a replayed answer came from. */
export const FIXTURE_HEADER = 'x-conformance-fixture';
