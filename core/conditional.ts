/** The conditional-request rule the reference and the replaying proxy both answer by. */

export interface Conditions {
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: string | undefined;
}

export interface Validators {
  /** The ETag with its quotes ("the quotes around the value are required"), when the resource has one. */
  etag?: string | undefined;
  /** An HTTP date, when the resource has one. */
  lastModified?: string | undefined;
}

/**
 * RFC 9110 §13.1.2: If-None-Match compares weakly (W/ ignored), `*` matches any, and an unquoted
 * copy never matches. §13.1.3: a present If-None-Match makes If-Modified-Since ignored; otherwise
 * not modified when Last-Modified is not later than the date sent.
 */
export function notModified(conditions: Conditions, validators: Validators): boolean {
  if (conditions.ifNoneMatch !== undefined) {
    return conditions.ifNoneMatch.split(',').map((v) => v.trim().replace(/^W\//, '')).some((v) => v === '*' || v === validators.etag);
  }
  if (conditions.ifModifiedSince === undefined || validators.lastModified === undefined) return false;
  const since = Date.parse(conditions.ifModifiedSince);
  const modified = Date.parse(validators.lastModified);
  return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
}
