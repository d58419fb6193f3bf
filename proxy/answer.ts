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
  return { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from(JSON.stringify(body)) };
}
