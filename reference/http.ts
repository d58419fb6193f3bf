/** The contract between the reference's request pipeline and its area handlers. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Endpoint } from '../spec/catalogue.js';
import type { VendorNames } from '../spec/vendor.js';
import type { Token } from './world.js';
import type { ReferenceState } from './state.js';

export interface Caller {
  token: Token | null;
  /** Login the request acts as; null when anonymous. */
  login: string | null;
  /** Rate-limit identity: a user, an installation, an app's client ID, or an anonymous address. */
  rateKey: string;
  /** An OAuth app's client ID, for requests authenticated with its client ID and secret (no token, no user). */
  client?: string;
}

export interface HandlerContext {
  endpoint: Endpoint;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body of a write (an empty object when none was sent). */
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  caller: Caller;
  state: ReferenceState;
  names: VendorNames;
  /** API root as clients see it, including any prefix, e.g. http://127.0.0.1:8080/api/v3 */
  apiBase: string;
  /** Web root for html_url fields. */
  webBase: string;
  /** The requested URL (absolute), for Link headers. */
  url: URL;
  /** Whether the request asked for text-match metadata. */
  textMatch: boolean;
  now(): number;
  fault(id: string): boolean;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Epoch ms of the last change of the listed data; enables Last-Modified / If-Modified-Since. */
  lastModified?: number;
}

export type Handler = (ctx: HandlerContext) => HandlerResult | Promise<HandlerResult>;

export function json(status: number, body: unknown, headers?: Record<string, string>): HandlerResult {
  return { status, body, ...(headers ? { headers } : {}) };
}

export function empty(status: number, headers?: Record<string, string>): HandlerResult {
  return { status, ...(headers ? { headers } : {}) };
}

/** "Error bodies carry a `message` string." */
export function error(status: number, message: string, extra: Record<string, unknown> = {}): HandlerResult {
  return { status, body: { message, documentation_url: 'https://docs.example.invalid/rest', ...extra } };
}

export function notFound(): HandlerResult {
  return error(404, 'Not Found');
}

// Handlers format times with it; it lives apart so the rate limiter (imported by state.ts) need not import this file.
export { timestamp } from '../core/timestamp.js';

/** Parses the spec's timestamp form (and any ISO 8601 Date accepts); NaN when invalid. */
export function parseTimestamp(value: string): number {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return Number.NaN;
  return Date.parse(value);
}

export interface Page<T> {
  items: T[];
  headers: Record<string, string>;
}

/**
 * Reads per_page/page, caps per_page at `max` (larger values are clamped, as the real platform
 * does), and builds a Link header with first/prev/next/last relations.
 */
export function paginate<T>(ctx: HandlerContext, all: readonly T[], opts: { max: number; default: number; reachable?: number }): Page<T> {
  const perPage = Math.min(Math.max(intParam(ctx.query.get('per_page'), opts.default), 1), opts.max);
  const page = Math.max(intParam(ctx.query.get('page'), 1), 1);
  const reachable = Math.min(all.length, opts.reachable ?? Number.POSITIVE_INFINITY);
  const start = (page - 1) * perPage;
  const items = start < reachable ? all.slice(start, Math.min(start + perPage, reachable)) : [];
  const last = Math.max(Math.ceil(reachable / perPage), 1);
  const link = linkHeader(ctx.url, perPage, page, last);
  return { items, headers: link ? { Link: link } : {} };
}

export function linkHeader(url: URL, perPage: number, page: number, last: number): string {
  const at = (n: number) => {
    const u = new URL(url);
    u.searchParams.set('per_page', String(perPage));
    u.searchParams.set('page', String(n));
    return u.toString();
  };
  const rels: string[] = [];
  if (page > 1) rels.push(`<${at(Math.min(page - 1, last))}>; rel="prev"`);
  if (page < last) rels.push(`<${at(page + 1)}>; rel="next"`);
  if (page < last) rels.push(`<${at(last)}>; rel="last"`);
  if (page > 1) rels.push(`<${at(1)}>; rel="first"`);
  return rels.join(', ');
}

export function intParam(value: string | null, fallback: number): number {
  if (value === null || value === '') return fallback;
  const n = Number(value);
  return Number.isInteger(n) ? n : fallback;
}

/** Boolean query parameters: "true"/"false"; anything else falls back. */
export function boolParam(value: string | null, fallback: boolean): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return fallback;
}
