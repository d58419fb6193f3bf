/**
 * Synthesized conditional answers (and dates) for replay. The matcher ignores If-None-Match and
 * If-Modified-Since, so a conditional request finds the same fixtures as a plain one; this stage
 * then decides between the 200 and a 304 against validators derived from what the proxy serves
 * (an upstream's ETag means nothing for a body rewritten to the proxy's address). Validators are
 * synthesized only where the recording carried them or the spec states them (spec/validators.ts):
 * an endpoint whose upstream sends none (the platform's searches) replays without.
 */
import { createHash } from 'node:crypto';
import { notModified } from '../core/conditional.js';
import { statedValidators, type ValidatorHeader } from '../spec/validators.js';
import { answerWith, headersWith, type Answer } from './answer.js';

export interface ConditionalRequest {
  method: string;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  /** Catalogue id of the endpoint asked for, when it is one. */
  endpoint?: string | undefined;
}

const VALIDATORS: readonly ValidatorHeader[] = ['etag', 'last-modified'];

/** A fixture's answer as it would be served, with the time it was recorded. */
export interface Representation {
  answer: Answer;
  recordedAt: string;
}

/** Headers that describe a body; a 304 has none. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'transfer-encoding'];

/**
 * Per frozen answer, the form it is served in: the replayer hands out the same frozen answer for a
 * fixture on every request (see proxy/rendered.ts), so its Date and hash are made once. Only the
 * form a fixture is served in is kept (a GET's 200 is always validated, anything else only dated).
 * Answers that may still change are prepared afresh each time.
 */
const prepared = new WeakMap<Answer, Forms>();

interface Forms {
  recordedAt: string;
  dated?: Answer;
  validated?: Answer;
  /** Kept for later requests, so frozen. */
  kept: boolean;
}

/**
 * The answer to a replayed request. It carries the recording's Date (the upstream's, else the
 * recording time): a replayed body is the upstream as it was then, and clients that judge bodies
 * by the server's clock (the 90-day event window, the five-minute delay) must judge it by that
 * time, however old the cassette. A GET's 200 with validators (recorded or stated) gets them
 * synthesized, and becomes a 304 when the request's validators match them. (For a recorded 304
 * the replayer serves the full answer it confirmed, so the decision is always made against a body.)
 */
export function answerConditional(req: ConditionalRequest, served: Representation): Answer {
  const forms = formsOf(served);
  const keep = (answer: Answer) => (forms.kept ? frozen(answer) : answer);
  const which = validatorsOf(served.answer, req.endpoint);
  if (req.method.toUpperCase() !== 'GET' || served.answer.status !== 200 || !served.answer.body || !which.length) return forms.dated ??= keep(dated(served));
  const answer = forms.validated ??= keep(withValidators({ answer: dated(served), recordedAt: served.recordedAt }, which));
  const { 'if-none-match': ifNoneMatch, 'if-modified-since': ifModifiedSince } = req.headers;
  // Most requests carry no validator: nothing to compare.
  if (ifNoneMatch === undefined && ifModifiedSince === undefined) return answer;
  return notModified({ ifNoneMatch, ifModifiedSince }, { etag: answer.headers.etag, lastModified: answer.headers['last-modified'] }) ? toNotModified(answer) : answer;
}

/** The validators an answer is served with: those its recording carried, and those the spec states for its endpoint. */
function validatorsOf(answer: Answer, endpoint: string | undefined): readonly ValidatorHeader[] {
  const stated = statedValidators(endpoint);
  return VALIDATORS.filter((v) => answer.headers[v] !== undefined || stated.includes(v));
}

function formsOf(served: Representation): Forms {
  const found = prepared.get(served.answer);
  if (found?.recordedAt === served.recordedAt) return found;
  const forms = { recordedAt: served.recordedAt, kept: Object.isFrozen(served.answer) };
  // Shared by the requests to come, as the answer it derives from is.
  if (forms.kept) prepared.set(served.answer, forms);
  return forms;
}

/** The upstream's Date as recorded; a fixture recorded without one (before the proxy kept it) is dated when it was recorded. */
function dated(served: Representation): Answer {
  if (served.answer.headers.date !== undefined) return served.answer;
  return answerWith(served.answer, headersWith(served.answer.headers, { date: new Date(served.recordedAt).toUTCString() }));
}

/** A 200 with the validators named: ETag (quoted, strong: a hash of the bytes as served), Last-Modified (recorded, else the recording time). */
function withValidators({ answer, recordedAt }: Representation, which: readonly ValidatorHeader[]): Answer {
  const extra: Record<string, string> = {};
  if (which.includes('etag')) extra.etag = `"${createHash('sha256').update(answer.body ?? '').digest('hex')}"`;
  if (which.includes('last-modified')) extra['last-modified'] = answer.headers['last-modified'] ?? new Date(recordedAt).toUTCString();
  return answerWith(answer, headersWith(answer.headers, extra));
}

function frozen(answer: Answer): Answer {
  Object.freeze(answer.headers);
  return Object.freeze(answer);
}

/** The 304: no body, the 200's other headers kept (validators, X-Poll-Interval, Link). */
function toNotModified(answer: Answer): Answer {
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !BODY_HEADERS.includes(name)));
  return { status: 304, headers };
}
