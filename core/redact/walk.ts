/** The structural walkers: JSON values and `name=value` pairs (forms, query strings, URLs in text). */
import { MAX_JSON_DEPTH } from '../bounds.js';
import { MASK, PAIR, TOO_DEEP } from './rules.js';

type Container = Record<string, unknown> | unknown[];

/**
 * A copy of a JSON value with each string through `text` and each non-null value under a key that
 * `mask` accepts replaced by MASK. Built without recursion, so hostile nesting cannot overflow the
 * stack; what is nested deeper than `maxDepth` becomes TOO_DEEP, so the copy still serializes.
 * When nothing would change, the value itself (a body without secrets, nearly every one: copying
 * each took a tenth of a whole run's CPU); callers treat either as read-only.
 */
export function mapJson(value: unknown, text: (s: string) => string, mask: (key: string, value: unknown) => boolean = () => false, maxDepth = MAX_JSON_DEPTH): unknown {
  if (!changes(value, text, mask, maxDepth)) return value;
  const root: unknown[] = [undefined];
  const work: [source: unknown, target: Container, key: string | number, depth: number][] = [[value, root, 0, 0]];
  for (let item = work.pop(); item; item = work.pop()) {
    const [source, target, key, depth] = item;
    let out = source;
    if (typeof source === 'string') out = text(source);
    else if (source !== null && typeof source === 'object') {
      if (depth >= maxDepth) out = TOO_DEEP;
      else if (Array.isArray(source)) {
        const list: unknown[] = new Array<unknown>(source.length);
        source.forEach((v, i) => work.push([v, list, i, depth + 1]));
        out = list;
      } else {
        const object: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(source)) {
          const masked = v !== null && mask(k, v);
          put(object, k, masked ? MASK : undefined);
          if (!masked) work.push([v, object, k, depth + 1]);
        }
        out = object;
      }
    }
    put(target, key, out);
  }
  return root[0];
}

/** Whether mapJson would change anything of `value`: a string `text` rewrites, a value `mask` takes, nesting past `maxDepth`. */
function changes(value: unknown, text: (s: string) => string, mask: (key: string, value: unknown) => boolean, maxDepth: number): boolean {
  if (typeof value === 'string') return text(value) !== value;
  const work: [source: unknown, depth: number][] = [[value, 0]];
  for (let item = work.pop(); item; item = work.pop()) {
    const [source, depth] = item;
    if (source === null || typeof source !== 'object') continue;
    if (depth >= maxDepth) return true;
    if (Array.isArray(source)) {
      for (const v of source) {
        if (typeof v === 'string') {
          if (text(v) !== v) return true;
        } else if (v !== null && typeof v === 'object') work.push([v, depth + 1]);
      }
      continue;
    }
    for (const k in source) {
      if (!Object.hasOwn(source, k)) continue;
      const v = (source as Record<string, unknown>)[k];
      if (v !== null && mask(k, v)) return true;
      if (typeof v === 'string') {
        if (text(v) !== v) return true;
      } else if (v !== null && typeof v === 'object') work.push([v, depth + 1]);
    }
  }
  return false;
}

/**
 * Visits every `key: value` of the objects in a JSON value, without copying it, until `visit`
 * answers true (then answers true). Iterative and bounded in depth like mapJson.
 */
export function someField(value: unknown, visit: (key: string, value: unknown) => boolean, maxDepth = MAX_JSON_DEPTH): boolean {
  const work: [source: unknown, depth: number][] = [[value, 0]];
  for (let item = work.pop(); item; item = work.pop()) {
    const [source, depth] = item;
    if (source === null || typeof source !== 'object' || depth >= maxDepth) continue;
    if (Array.isArray(source)) {
      for (const v of source) if (v !== null && typeof v === 'object') work.push([v, depth + 1]);
      continue;
    }
    for (const k in source) {
      if (!Object.hasOwn(source, k)) continue;
      const v = (source as Record<string, unknown>)[k];
      if (visit(k, v)) return true;
      if (v !== null && typeof v === 'object') work.push([v, depth + 1]);
    }
  }
  return false;
}

/**
 * Whether `test` accepts any string of a JSON value, keys included, without copying or serializing
 * it; nesting past `maxDepth` answers true, as a walk that cannot look there must assume it does.
 */
export function someText(value: unknown, test: (s: string) => boolean, maxDepth = MAX_JSON_DEPTH): boolean {
  if (typeof value === 'string') return test(value);
  // Two stacks, not one of [value, depth] pairs: a pair allocated per value cost more than the search.
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length) {
    const source = values.pop();
    const depth = depths.pop()!;
    if (source === null || typeof source !== 'object') continue;
    if (depth >= maxDepth) return true;
    if (Array.isArray(source)) {
      for (const v of source) {
        if (typeof v === 'string') {
          if (test(v)) return true;
        } else if (v !== null && typeof v === 'object') {
          values.push(v);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const k in source) {
      if (!Object.hasOwn(source, k)) continue;
      if (test(k)) return true;
      const v = (source as Record<string, unknown>)[k];
      if (typeof v === 'string') {
        if (test(v)) return true;
      } else if (v !== null && typeof v === 'object') {
        values.push(v);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** A `__proto__` key of parsed JSON is defined, not assigned, so it stays a plain key (assignment is the fast path). */
function put(target: Container, key: string | number, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string | number, unknown>)[key] = value;
}

/**
 * Masks the value of every pair whose name `secret` accepts (the name decoded first), handing the
 * decoded value, and the value as written, to `found`.
 */
export function maskPairs(text: string, secret: (name: string) => boolean, found: (value: string) => void = () => {}): string {
  if (!text.includes('=')) return text;
  return text.replace(PAIR, (whole, lead: string, name: string, value: string) => {
    if (!secret(decode(name))) return whole;
    found(decode(value));
    found(value);
    return `${lead}${name}=${MASK}`;
  });
}

/** A percent- or form-encoded component decoded; text that does not decode is taken as it is. */
export function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A form body (`application/x-www-form-urlencoded`): every pair's whole value, whatever it holds, is masked when its name is secret. */
export function maskForm(text: string, secret: (name: string) => boolean, found: (value: string) => void): string {
  return text.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0 || !secret(decode(pair.slice(0, eq)))) return pair;
    found(decode(pair.slice(eq + 1)));
    found(pair.slice(eq + 1));
    return `${pair.slice(0, eq)}=${MASK}`;
  }).join('&');
}
