/**
 * Synthesized conditional answers for replay. The matcher ignores If-None-Match and
 * If-Modified-Since, so a conditional request finds the same fixtures as a plain one; this stage
 * then decides between the 200 and a 304 against validators derived from what the proxy serves
 * (an upstream's ETag means nothing for a body rewritten to the proxy's address).
 */
import { createHash } from 'node:crypto';
import type { Answer } from './answer.js';
import type { Interaction } from './interaction.js';

export interface ConditionalRequest {
  method: string;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
}

/** A fixture's answer as it would be served, with the time it was recorded. */
export interface Representation {
  answer: Answer;
  recordedAt: string;
}

/** Headers that describe a body; a 304 has none. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'transfer-encoding'];

/**
 * The answer to a replayed request. `served` is the matched fixture; when it is a recorded 304,
 * `current` is the 200 it referred to (see `representationFor`), judged against this request's
 * validators instead, because the recorded request's validators were the upstream's.
 * Only GETs are conditional; any other answer passes unchanged.
 */
export function answerConditional(req: ConditionalRequest, served: Representation, current?: Representation): Answer {
  if (req.method.toUpperCase() !== 'GET') return served.answer;
  const rep = served.answer.status === 304 ? current : served;
  // A recorded 304 whose 200 is not in the cassette: nothing to judge against, so it is served as recorded.
  if (!rep) return served.answer;
  if (rep.answer.status !== 200 || !rep.answer.body) return rep.answer;
  const answer = withValidators(rep);
  return notModified(req, answer.headers) ? toNotModified(answer) : answer;
}

/** A 200 with ETag (quoted, strong: a hash of the bytes as served) and Last-Modified (recorded, else the recording time). */
export function withValidators({ answer, recordedAt }: Representation): Answer {
  const etag = `"${createHash('sha256').update(answer.body ?? '').digest('hex')}"`;
  const lastModified = answer.headers['last-modified'] ?? new Date(recordedAt).toUTCString();
  return { ...answer, headers: { ...answer.headers, etag, 'last-modified': lastModified } };
}

/** For a recorded 304: the latest earlier 200 with a body among the interactions sharing its key. */
export function representationFor(interaction: Interaction, sameKey: readonly Interaction[]): Interaction | undefined {
  let best: Interaction | undefined;
  for (const i of sameKey) {
    if (i.sequence >= interaction.sequence || i.response.status !== 200 || !i.response.body) continue;
    if (!best || i.sequence > best.sequence) best = i;
  }
  return best;
}

/**
 * RFC 9110 §13.1.2: If-None-Match compares weakly (W/ ignored) against the quoted ETag, `*` matches
 * any; the quotes are part of the value ("the quotes around the value are required"). §13.1.3: a
 * present If-None-Match makes If-Modified-Since ignored; otherwise not modified when Last-Modified
 * is not later than the date sent.
 */
function notModified(req: ConditionalRequest, headers: Record<string, string>): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch.split(',').map((v) => v.trim().replace(/^W\//, '')).some((v) => v === '*' || v === headers.etag);
  }
  const ifModifiedSince = req.headers['if-modified-since'];
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  const modified = Date.parse(headers['last-modified'] ?? '');
  return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
}

/** The 304: no body, the 200's other headers kept (validators, X-Poll-Interval, Link). */
function toNotModified(answer: Answer): Answer {
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !BODY_HEADERS.includes(name)));
  return { status: 304, headers };
}
