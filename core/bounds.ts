/**
 * Limits on what a target or an upstream can make this process hold: a body's size and its JSON
 * nesting. The run's client and the proxy share them, so a hostile server meets the same bounds.
 */
export const MB = 1024 * 1024;
/** Default of --max-body (run and proxy): far above any answer of the API, far below what exhausts memory. */
export const DEFAULT_MAX_BODY_MB = 25;
export const DEFAULT_MAX_BODY_BYTES = DEFAULT_MAX_BODY_MB * MB;
/** A body nesting deeper than this is dropped as soon as it is parsed: the recursive walkers after the parse (schema validation, JSON.stringify of reports) would overflow the stack. */
export const MAX_JSON_DEPTH = 512;

/** A body limit as messages name it, with the flag that sets it. */
export function bodyLimit(bytes: number): string {
  return `the limit of ${Number((bytes / MB).toFixed(3))} MB (--max-body)`;
}

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `limit` (the outermost is level 1),
 * found without recursion. Judged after the parse, which V8 does without recursion too: walking the
 * containers of a parsed answer costs a twentieth of scanning its text character by character.
 */
export function nestsDeeper(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const containers: object[] = [value];
  const levels: number[] = [1];
  for (let container = containers.pop(); container; container = containers.pop()) {
    const level = levels.pop()!;
    if (level > limit) return true;
    for (const inner of Array.isArray(container) ? container : Object.values(container)) {
      if (inner !== null && typeof inner === 'object') {
        containers.push(inner as object);
        levels.push(level + 1);
      }
    }
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
