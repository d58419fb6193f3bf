/**
 * Replay's memory of requests it has keyed. A bodiless request identical to an earlier one (method,
 * URL and every header as sent) is redacted, keyed and catalogued alike, so it takes the earlier
 * result instead of redacting and hashing again: a client polling or cycling through its fixtures
 * pays that work twice per distinct request. A result is kept from a request's second sighting
 * (the first only notes its id), so a client sending each request once (a run through a large
 * cassette) does not fill memory with keyings never used again. The server offers only results
 * redaction would repeat (see RedactedRequest.repeatable); the budgets bound what a replay holds.
 */
import type { IncomingMessage } from 'node:http';
import { Lru } from './lru.js';

/** Enough for tens of thousands of distinct requests of a typical client (ids of a few hundred characters). */
export const KNOWN_REQUESTS_BYTES = 16 * 1024 * 1024;
/** Memory an entry holds beyond its id, as estimated for a small redacted request and its key. */
const ENTRY_OVERHEAD = 1024;
/** Ids seen once, by weight of their text: a quarter of the budget notes more ids than the whole keeps results. */
const SEEN_SHARE = 4;
const SEEN_OVERHEAD = 64;

export class KnownRequests<T> {
  private readonly kept: Lru<string, T>;
  private readonly seen: Lru<string, true>;

  constructor(budgetBytes = KNOWN_REQUESTS_BYTES) {
    // Both weighed by id as each is kept (see set).
    this.kept = new Lru(budgetBytes, () => ENTRY_OVERHEAD);
    this.seen = new Lru(budgetBytes / SEEN_SHARE, () => SEEN_OVERHEAD);
  }

  /**
   * Everything of a request its redaction and key are made from, but the body (a request with one
   * is never looked up). The HTTP parser refuses NUL in a request line or header, so it separates.
   */
  static id(req: IncomingMessage): string {
    return `${req.method ?? ''}\u0000${req.url ?? ''}\u0000${req.rawHeaders.join('\u0000')}`;
  }

  get(id: string): T | undefined {
    return this.kept.get(id);
  }

  /** Offers the result for `id`: kept if `id` was offered before (and not forgotten since). */
  set(id: string, value: T): void {
    if (this.seen.get(id)) {
      this.seen.delete(id);
      this.kept.set(id, value, ENTRY_OVERHEAD + 2 * id.length);
    } else {
      this.seen.set(id, true, SEEN_OVERHEAD + 2 * id.length);
    }
  }
}
