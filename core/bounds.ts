/**
 * Limits on what a target or an upstream can make this process hold: a body's size and its JSON
 * nesting. The run's client and the proxy share them, so a hostile server meets the same bounds.
 */
export const MB = 1024 * 1024;
/** Default of --max-body (run and proxy): far above any answer of the API, far below what exhausts memory. */
export const DEFAULT_MAX_BODY_MB = 25;
export const DEFAULT_MAX_BODY_BYTES = DEFAULT_MAX_BODY_MB * MB;
/** Nesting deeper than this is not parsed: the recursive walkers after the parse (redaction, schema validation, JSON.stringify of reports) would overflow the stack. */
export const MAX_JSON_DEPTH = 512;

/** A body limit as messages name it, with the flag that sets it. */
export function bodyLimit(bytes: number): string {
  return `the limit of ${Number((bytes / MB).toFixed(3))} MB (--max-body)`;
}

/** Whether `text` nests arrays and objects deeper than `limit`, counted in one pass without recursion (brackets in strings do not count). */
export function nestsDeeper(text: string, limit = MAX_JSON_DEPTH): boolean {
  // Nesting needs as many opening brackets: most answers have far fewer, found without a walk.
  if (!opensMoreThan(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

const [BACKSLASH, QUOTE, OPEN_ARRAY, OPEN_OBJECT, CLOSE_ARRAY, CLOSE_OBJECT] = [...'\\"[{]}'].map((c) => c.charCodeAt(0)) as [number, number, number, number, number, number];

function opensMoreThan(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['[', '{']) {
    for (let at = text.indexOf(bracket); at >= 0; at = text.indexOf(bracket, at + 1)) if (++count > limit) return true;
  }
  return false;
}

/** Chunks kept until more than `limit` bytes arrived; from then on `add` answers false and keeps nothing. */
export class BoundedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(readonly limit: number) {}

  add(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.limit) return false;
    this.chunks.push(chunk);
    return true;
  }

  get over(): boolean {
    return this.size > this.limit;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
