/**
 * Judging a validator sent back after a wait ("with no news the answer is 304"). Meanwhile the
 * resource may have changed (the target's own users, or a write the spec does not say leaves it be),
 * so a 200 fails the target only when it shows that nothing changed: the same validator again, or
 * the very same body under another one (a validator that changes with every answer).
 */
import type { Reply } from '../core/client.js';
import type { CheckContext } from '../core/suite.js';

export type Validator = 'etag' | 'last-modified';
/** The request header that sends each validator back. */
export const CONDITION: Readonly<Record<Validator, string>> = { etag: 'if-none-match', 'last-modified': 'if-modified-since' };

/** Nothing when 304; else what changed (inconclusive) or what is wrong (a failure). */
export type NotModified = undefined | { changed: string } | { failure: string };

/** `read`: the answer whose `validator` was sent back; `again`: the answer to sending it back. */
export function notModified(path: string, validator: Validator, read: Reply, again: Reply): NotModified {
  if (again.status === 304) return undefined;
  const sent = read.headers[validator]!;
  const now = again.headers[validator];
  const expected = `GET ${path} with ${CONDITION[validator]}: ${sent}: expected 304 (nothing changed), got ${again.status}`;
  if (again.status !== 200 || now === sent) return { failure: expected };
  if (again.text === read.text) return { failure: `${expected} with the same body under another ${validator} (${now ?? 'none'}): the validator changes though the resource did not` };
  return { changed: `GET ${path} changed since it was read (${validator} ${sent} → ${now ?? 'none'})` };
}

/** A check's verdict on it: a resource that changed in between is inconclusive, never a pass. */
export function judgeNotModified(t: CheckContext, path: string, validator: Validator, read: Reply, again: Reply): void {
  const judged = notModified(path, validator, read, again);
  if (judged && 'failure' in judged) t.fail(judged.failure);
  else if (judged) t.skip('inconclusive', judged.changed);
}
