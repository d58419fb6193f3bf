/**
 * Replay's memory of requests it has keyed. A bodiless request identical to an earlier one (method,
 * URL and every header as sent) is redacted, keyed and catalogued alike, so it takes the earlier
 * result instead of redacting and hashing again: a client polling or cycling through its fixtures
 * pays that work twice per distinct request. A result is kept from a request's second sighting
 * (the first only notes a hash of its id), so a client sending each request once (a run through a
 * large cassette) does not fill memory with keyings never used again. The server offers only results
 * redaction would repeat (see RedactedRequest.repeatable); the budgets bound what a replay holds.
 */
import type { IncomingMessage } from 'node:http';
import { Lru } from './lru.js';

/** Enough for tens of thousands of distinct requests of a typical client (ids of a few hundred characters). */
export const KNOWN_REQUESTS_BYTES = 16 * 1024 * 1024;
/** Memory an entry holds beyond its id, as estimated for a small redacted request and its key. */
const ENTRY_OVERHEAD = 1024;
/** Hashes of ids seen once: a sixteenth of the budget notes more of them than the whole keeps results. */
const SEEN_SHARE = 16;
/** A small integer in a map entry, as estimated. */
const SEEN_WEIGHT = 48;

export class KnownRequests<T> {
  private readonly kept: Lru<string, T>;
  private readonly seen: Lru<number, true>;

  constructor(budgetBytes = KNOWN_REQUESTS_BYTES) {
    // Weighed by id as each is kept (see set).
    this.kept = new Lru(budgetBytes, () => ENTRY_OVERHEAD);
    this.seen = new Lru(budgetBytes / SEEN_SHARE, () => SEEN_WEIGHT);
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
    // Two ids of one hash only make one of them kept a sighting early: what is kept is found by its whole id.
    const hash = fnv1a(id);
    if (this.seen.get(hash)) {
      this.seen.delete(hash);
      this.kept.set(id, value, ENTRY_OVERHEAD + 2 * id.length);
    } else {
      this.seen.set(hash, true);
    }
  }
}

/** FNV-1a of a string's UTF-16 code units, cut to 30 bits: a small integer, which a map holds without an allocation. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}
