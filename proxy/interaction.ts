/**
 * One recorded exchange, as stored in a cassette: the unit the recorder writes, the matcher keys,
 * the replayer serves and the HAR converter translates. Secrets are removed before one is built.
 */

/**
 * A body as stored: JSON (diff-friendly) laid out with `indent` spaces and a final `newline` when
 * the upstream's bytes were so laid out, otherwise the exact text, or base64 for bytes that are not
 * UTF-8 (see body.ts). `redacted`: the redactor masked something, so the stored body is no longer
 * the bytes received.
 */
export type StoredBody = (
  | { encoding: 'json'; json: unknown; indent?: number; newline?: true }
  | { encoding: 'text'; text: string }
  | { encoding: 'base64'; base64: string }
) & { redacted?: true };

export interface RecordedRequest {
  method: string;
  /** Path below the target's prefix (e.g. `/search/issues`, never `/api/v3/search/issues`). */
  path: string;
  /** Query parameters, names sorted, values in the order sent; secret parameters already masked. */
  query: Record<string, string[]>;
  /** Lower-case header names; secrets masked; the caller's identity as a stable placeholder. */
  headers: Record<string, string>;
  body?: StoredBody;
}

export interface RecordedResponse {
  status: number;
  /** Lower-case header names as the upstream sent them (Date included), secrets masked. */
  headers: Record<string, string>;
  /** The body as received, decoded from `contentEncoding` when the upstream compressed it (replayed decoded). */
  body?: StoredBody;
  contentEncoding?: string;
}

export interface Interaction {
  /** Format version of the fixture file. */
  version: 1;
  /** The match key (hash of the matching parts of the request); equal requests share it. */
  key: string;
  /** Position among interactions with the same key, from 0, in the order they were recorded. */
  sequence: number;
  recordedAt: string;
  /** Upstream origin and prefix the exchange was recorded from, for rewriting addresses on replay. */
  upstream: string;
  request: RecordedRequest;
  response: RecordedResponse;
  /** Upstream response time, replayed only when latency simulation asks for it. */
  durationMs: number;
}

/** An HTTP method is a token (RFC 9110): it names the request and a fixture's file, so nothing else is taken for one. */
export const isMethod = (method: string): boolean => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method);
