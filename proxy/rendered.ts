/**
 * Replayed answers as served, rendered once per fixture file and proxy address (the rewritten
 * URLs depend on both) and kept while recently used: a request for a kept answer costs a lookup,
 * no JSON walk, no serialization. The budget bounds what a replay holds, however many fixtures it
 * has served. A file is never rewritten while a run replays it (record-missing replays only keys
 * it did not record), so its name identifies what was rendered.
 */
import type { Answer } from './answer.js';
import { Lru } from './lru.js';

/** A fixture's answer ready to send, with what the stages need to know of its recording. */
export interface Rendered {
  /** Frozen: shared by every request for the fixture, so stages build new answers from it. */
  answer: Readonly<Answer>;
  recordedAt: string;
  durationMs: number;
}

/** Enough for tens of thousands of small answers: a client cycling through more than fit would miss on every request. */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * Memory an entry holds beyond its bytes, as measured (about 1.3 KB per small answer, body
 * included): the objects, the map entry, and the dated, validated and rate-limit forms the stages
 * keep per kept answer (see conditional.ts, rate-limits.ts).
 */
const ENTRY_OVERHEAD = 1024;

export class RenderedAnswers {
  private readonly kept: Lru<string, Rendered>;
  /** The address of the first answer rendered, which nearly every client uses: its answers are kept by file name alone, no key built per request. */
  private home: string | undefined;

  constructor(budgetBytes = DEFAULT_CACHE_BYTES) {
    this.kept = new Lru(budgetBytes, weight);
  }

  /** The kept answer for `file` served at `self`, or the one `render` makes (then kept). */
  get(file: string, self: string, render: () => Rendered): Rendered {
    this.home ??= self;
    // A file name holds no NUL, so the two kinds of key never meet.
    const id = self === this.home ? file : `${self}\u0000${file}`;
    let found = this.kept.get(id);
    if (!found) {
      found = render();
      Object.freeze(found.answer.headers);
      Object.freeze(found.answer);
      this.kept.set(id, found);
    }
    return found;
  }

  /** Bytes held, by the same estimate the budget is checked with. */
  get weight(): number {
    return this.kept.weight;
  }

  get size(): number {
    return this.kept.size;
  }
}

function weight(r: Rendered): number {
  let n = ENTRY_OVERHEAD + (r.answer.body?.length ?? 0);
  for (const [k, v] of Object.entries(r.answer.headers)) n += 2 * (k.length + v.length);
  return n;
}
