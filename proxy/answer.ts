/**
 * A response the replay pipeline is about to send. The synthesizing stages (rate limits,
 * conditional answers, chaos) take and return this shape, so each is a pure function of it.
 */
export interface Answer {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The bytes as served (after address rewriting); absent for an empty body. */
  body?: Buffer;
}

/** A JSON answer with a `message`, the spec's error body shape ("Error bodies carry a `message` string"). */
export function jsonAnswer(status: number, body: { message: string } & Record<string, unknown>, headers: Record<string, string> = {}): Answer {
  return { status, headers: headersWith(headers, { 'content-type': 'application/json; charset=utf-8' }), body: Buffer.from(JSON.stringify(body)) };
}

/**
 * `headers` with `extra` set after them, as a new object built by assignment. A spread followed by
 * further properties (`{ ...headers, etag }`, `{ ...answer, headers }`) gives every object V8 builds
 * that way a hidden class of its own: the kept answers of 10,000 fixtures carried 30,000 classes
 * (with their descriptors, about a kilobyte per fixture), each request's answer made one more, and
 * every access to them missed its inline cache. Objects built by assignment share a class per
 * sequence of property names.
 */
export function headersWith(headers: Readonly<Record<string, string>>, extra: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[name] = headers[name]!;
  for (const name in extra) out[name] = extra[name]!;
  return out;
}

/** `answer` with other headers, as a new answer (built, not spread: see headersWith). */
export function answerWith(answer: Readonly<Answer>, headers: Record<string, string>): Answer {
  return answer.body ? { status: answer.status, headers, body: answer.body } : { status: answer.status, headers };
}
