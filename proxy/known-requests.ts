/**
 * Replay's memory of requests it has keyed. A bodiless request identical to an earlier one (method,
 * URL and every header as sent) is redacted, keyed and catalogued alike, so it takes the earlier
 * result instead of redacting and hashing again: a client polling or cycling through its fixtures
 * pays that work once per distinct request. The server keeps only results that redaction would
 * repeat (see RedactedRequest.repeatable); the budget bounds what a replay holds.
 */
import type { IncomingMessage } from 'node:http';
import { Lru } from './lru.js';

/** Enough for tens of thousands of distinct requests of a typical client (ids of a few hundred characters). */
export const KNOWN_REQUESTS_BYTES = 16 * 1024 * 1024;
/** Memory an entry holds beyond its id, as estimated for a small redacted request and its key. */
const ENTRY_OVERHEAD = 1024;

export class KnownRequests<T> {
  private readonly kept: Lru<string, { value: T; weight: number }>;

  constructor(budgetBytes = KNOWN_REQUESTS_BYTES) {
    this.kept = new Lru(budgetBytes, (e) => e.weight);
  }

  /**
   * Everything of a request its redaction and key are made from, but the body (a request with one
   * is never looked up). The HTTP parser refuses NUL in a request line or header, so it separates.
   */
  static id(req: IncomingMessage): string {
    return `${req.method ?? ''}\u0000${req.url ?? ''}\u0000${req.rawHeaders.join('\u0000')}`;
  }

  get(id: string): T | undefined {
    return this.kept.get(id)?.value;
  }

  set(id: string, value: T): void {
    this.kept.set(id, { value, weight: ENTRY_OVERHEAD + 2 * id.length });
  }
}
