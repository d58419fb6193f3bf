/**
 * Flag values checked as the command line is parsed: a wrong one is one line naming the flag and
 * what was typed (yargs alone turns `--port abc` into NaN and lets it through).
 */
import { UserError } from '../exit-codes.js';

interface Range {
  min: number;
  max?: number;
  /** Whether `min` itself is refused (a timeout of 0 is no timeout). */
  aboveMin?: boolean;
}

function checked(flag: string, what: string, range: Range, integer: boolean) {
  return (raw: unknown): number => {
    const text = String(Array.isArray(raw) ? raw.at(-1) : raw).trim();
    const n = text === '' ? NaN : Number(text);
    const ok = Number.isFinite(n) && (!integer || Number.isInteger(n))
      && (range.aboveMin ? n > range.min : n >= range.min) && (range.max === undefined || n <= range.max);
    if (!ok) throw new UserError(`--${flag} must be ${what}, got "${text}"`);
    return n;
  };
}

/** An integer flag within a range, e.g. a port. */
export function integerOption(flag: string, what: string, describe: string, range: Range, fallback?: number) {
  return { type: 'string' as const, describe, coerce: checked(flag, what, range, true), ...(fallback !== undefined ? { default: String(fallback) } : {}) };
}

/** A number flag within a range, fractions allowed, e.g. seconds. */
export function numberOption(flag: string, what: string, describe: string, range: Range, fallback?: number) {
  return { type: 'string' as const, describe, coerce: checked(flag, what, range, false), ...(fallback !== undefined ? { default: String(fallback) } : {}) };
}

export const portOption = (fallback: number) => integerOption('port', 'an integer from 0 to 65535', 'TCP port (0 picks a free one)', { min: 0, max: 65535 }, fallback);

/** A path prefix such as /api/v3: path segments only, no query, fragment, dot segments or spaces. */
export function prefixOption(describe: string, fallback?: string) {
  return {
    type: 'string' as const, describe, ...(fallback !== undefined ? { default: fallback } : {}),
    coerce: (raw: unknown): string => {
      const text = String(Array.isArray(raw) ? raw.at(-1) : raw);
      if (text && (!/^\/?[A-Za-z0-9._~!$&'()*+,;=:@%-]+(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/.test(text) || /(^|\/)\.\.?(\/|$)/.test(text))) {
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
      const text = String(Array.isArray(raw) ? raw.at(-1) : raw);
      if (!/^[a-z][a-z0-9-]*$/.test(text)) throw new UserError(`--vendor must be a lowercase word such as service or github, got "${text}"`);
      return text;
    },
  };
}
