/**
 * Flag values checked as the command line is parsed: a wrong one is one line naming the flag and
 * what was typed (yargs alone turns `--port abc` into NaN and lets it through).
 */
import { DEFAULT_MAX_BODY_MB, MB } from '../../core/bounds.js';
import { VENDOR_WORD } from '../../spec/vendor.js';
import { MAX_SHARDS, parseShard, type Shard } from '../../core/shard.js';
import { UserError } from '../../core/exit-codes.js';

interface Range {
  min: number;
  max?: number;
  /** Whether `min` itself is refused (a timeout of 0 is no timeout). */
  aboveMin?: boolean;
}

/** Above zero: a timeout of 0 would be no timeout. */
export const POSITIVE: Range = { min: 0, aboveMin: true };

/** What was typed: the last of a repeated flag. */
const typed = (raw: unknown): string => String(Array.isArray(raw) ? raw.at(-1) : raw).trim();

function checked(flag: string, what: string, range: Range, integer: boolean) {
  return (raw: unknown): number => {
    const text = typed(raw);
    const n = text === '' ? NaN : Number(text);
    const ok = Number.isFinite(n) && (!integer || Number.isInteger(n))
      && (range.aboveMin ? n > range.min : n >= range.min) && (range.max === undefined || n <= range.max);
    if (!ok) throw new UserError(`--${flag} must be ${what}, got "${text}"`);
    return n;
  };
}

interface NumberFlag {
  type: 'string';
  describe: string;
  coerce: (raw: unknown) => number;
}

/** An integer flag within a range, e.g. a port. */
export function integerOption(flag: string, what: string, describe: string, range: Range): NumberFlag;
export function integerOption(flag: string, what: string, describe: string, range: Range, fallback: number): NumberFlag & { default: string };
export function integerOption(flag: string, what: string, describe: string, range: Range, fallback?: number): NumberFlag {
  return { type: 'string', describe, coerce: checked(flag, what, range, true), ...(fallback !== undefined ? { default: String(fallback) } : {}) };
}

/** A number flag within a range, fractions allowed, e.g. seconds. */
export function numberOption(flag: string, what: string, describe: string, range: Range): NumberFlag;
export function numberOption(flag: string, what: string, describe: string, range: Range, fallback: number): NumberFlag & { default: string };
export function numberOption(flag: string, what: string, describe: string, range: Range, fallback?: number): NumberFlag {
  return { type: 'string', describe, coerce: checked(flag, what, range, false), ...(fallback !== undefined ? { default: String(fallback) } : {}) };
}

export const portOption = (fallback: number) => integerOption('port', 'an integer from 0 to 65535', 'TCP port (0 picks a free one)', { min: 0, max: 65535 }, fallback);

/** A path prefix such as /api/v3: path segments only, no query, fragment, dot segments or spaces. */
export function prefixOption(describe: string, fallback?: string) {
  return {
    type: 'string' as const, describe, ...(fallback !== undefined ? { default: fallback } : {}),
    coerce: (raw: unknown): string => {
      const text = typed(raw);
      // `/` alone is the root (the proxy: serve at the root whatever the target's path).
      if (text && text !== '/' && (!/^\/?[A-Za-z0-9._~!$&'()*+,;=:@%-]+(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/.test(text) || /(^|\/)\.\.?(\/|$)/.test(text))) {
        throw new UserError(`--prefix must be a path such as /api/v3, got "${text}"`);
      }
      return text;
    },
  };
}

/** The vendor word of header and media-type names: lowercase letters, digits and dashes (service, github). */
export function vendorOption(describe: string, fallback?: string) {
  return {
    type: 'string' as const, describe, ...(fallback !== undefined ? { default: fallback } : {}),
    coerce: (raw: unknown): string => {
      const text = typed(raw);
      if (!VENDOR_WORD.test(text)) throw new UserError(`--vendor must be a lowercase word such as service or github, got "${text}"`);
      return text;
    },
  };
}

/** A number flag that also takes one word in its place (`--latency recorded`, `--search-limit off`). */
export function numberOrWordOption<W extends string>(flag: string, word: W, what: string, describe: string, range: Range, integer: boolean) {
  const number = checked(flag, what, range, integer);
  return {
    type: 'string' as const, describe,
    coerce: (raw: unknown): number | W => {
      const text = typed(raw);
      return text === word ? word : number(text);
    },
  };
}

/** `--shard i/n`: the i-th of n parts of the selected checks. */
export function shardOption(describe: string) {
  return {
    type: 'string' as const, describe,
    coerce: (raw: unknown): Shard => {
      const text = typed(raw);
      const shard = parseShard(text);
      if (!shard) throw new UserError(`--shard must be i/n with 1 <= i <= n <= ${MAX_SHARDS}, such as 2/3, got "${text}"`);
      return shard;
    },
  };
}

/** One of a fixed set of words; yargs' own `choices` message spans several lines. */
export function choiceOption<C extends string>(flag: string, choices: readonly C[], describe: string, fallback: C) {
  return {
    type: 'string' as const, describe: `${describe} [${choices.join(', ')}]`, default: fallback,
    coerce: (raw: unknown): C => {
      const text = typed(raw);
      if (!(choices as readonly string[]).includes(text)) throw new UserError(`--${flag} must be ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}, got "${text}"`);
      return text as C;
    },
  };
}

/** An http(s) URL, e.g. an API root. */
export function urlOption(flag: string, describe: string) {
  return {
    type: 'string' as const, describe,
    coerce: (raw: unknown): string => {
      const text = typed(raw);
      if (!/^https?:\/\/[^/]/i.test(text) || !URL.canParse(text)) throw new UserError(`--${flag} must be an http(s) URL, got "${text}"`);
      return text;
    },
  };
}

/** A repeatable flag that also takes comma-separated values: `--suite a,b` is `--suite a --suite b`. */
export function listOption(describe: string) {
  return {
    type: 'string' as const, array: true as const, describe: `${describe} (comma-separated or repeated)`,
    coerce: (raw: unknown): string[] => (Array.isArray(raw) ? raw : [raw]).flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter(Boolean),
  };
}

/** `--max-body` (run and proxy), given in MB (fractions too: tests use small limits), taken in bytes. */
export function maxBodyOption(describe: string) {
  const what = 'a positive number of megabytes';
  const megabytes = checked('max-body', what, POSITIVE, false);
  return {
    type: 'string' as const, describe, default: String(DEFAULT_MAX_BODY_MB),
    coerce: (raw: unknown): number => {
      const bytes = Math.floor(megabytes(raw) * MB);
      if (bytes < 1) throw new UserError(`--max-body must be ${what}, got "${typed(raw)}"`);
      return bytes;
    },
  };
}
