/**
 * HAR 1.2 export and import of a cassette's interactions, so fixtures open in browser devtools
 * and interoperate with HAR-based tools (Polly.js and others). Export keeps what the format
 * cannot say in custom `_`-prefixed fields, so import∘export gives the interactions back. A
 * response's content is its exact bytes as recorded (decoded, as HAR holds it, with the
 * Content-Encoding it arrived in among the headers, as devtools write it), and import keeps them exact.
 */
import { STATUS_CODES } from 'node:http';
import { readPackageJson } from '../core/paths.js';
import { bodyBytes, exactBody } from './body.js';
import type { CassetteMeta } from './cassette.js';
import { isMethod, type Interaction, type RecordedRequest, type RecordedResponse, type StoredBody } from './interaction.js';

export interface HarPair { name: string; value: string }

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    queryString: HarPair[];
    postData?: { mimeType: string; text: string; _encoding?: 'base64' };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    /** `_redacted`: the redactor masked part of the body, so it is not the bytes received. */
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64'; _redacted?: true };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** The API root the exchange was recorded from (origin and prefix): a URL alone does not say where the prefix ends. */
  _upstream?: string;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
    /**
     * The exporting cassette's identity salt, placeholders and redaction rules (digests, never
     * secrets): a cassette imported with them keys live requests as the original did.
     */
    _cassette?: CassetteMeta;
  };
}

/** A HAR entry read back, before it is keyed: the place to redact HAR from other tools. */
export interface HarExchange {
  request: RecordedRequest;
  response: RecordedResponse;
}

/** The match layer's key function: equal requests share a key. */
export type KeyOf = (request: RecordedRequest) => string;

const HTTP_VERSION = 'HTTP/1.1';

/** A HAR 1.2 document with one entry per interaction, in the given (recorded) order. */
export function exportHar(interactions: readonly Interaction[], meta?: CassetteMeta): Har {
  const { name, version } = readPackageJson<{ name: string; version: string }>('package.json');
  return { log: { version: '1.2', creator: { name, version }, entries: interactions.map(toEntry), ...(meta ? { _cassette: meta } : {}) } };
}

function toEntry(i: Interaction): HarEntry {
  const { request, response } = i;
  const query = Object.entries(request.query).flatMap(([name, values]) => values.map((value) => ({ name, value })));
  const search = new URLSearchParams(query.map(({ name, value }) => [name, value])).toString();
  const sent = request.body && encode(request.body);
  const got = response.body && encode(response.body);
  const size = got ? byteLength(got) : 0;
  return {
    startedDateTime: i.recordedAt,
    time: i.durationMs,
    request: {
      method: request.method,
      url: `${i.upstream}${request.path}${search ? `?${search}` : ''}`,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: pairs(request.headers),
      queryString: query,
      ...(sent ? { postData: { mimeType: request.headers['content-type'] ?? 'application/json', text: sent.text, ...(sent.encoding ? { _encoding: sent.encoding } : {}) } } : {}),
      headersSize: -1,
      bodySize: sent ? byteLength(sent) : 0,
    },
    response: {
      status: response.status,
      statusText: STATUS_CODES[response.status] ?? '',
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: pairs(response.contentEncoding ? { ...response.headers, 'content-encoding': response.contentEncoding } : response.headers),
      content: { size, mimeType: response.headers['content-type'] ?? 'x-unknown', ...(got ?? {}), ...(response.body?.redacted ? { _redacted: true } : {}) },
      redirectURL: response.headers.location ?? '',
      headersSize: -1,
      bodySize: size,
    },
    cache: {},
    // The recorder measures one duration: all of it is waiting for the upstream.
    timings: { send: 0, wait: i.durationMs, receive: 0 },
    _upstream: i.upstream,
  };
}

export interface ImportOptions {
  /** API root (origin and prefix) of entries that do not name theirs (HAR from other tools); default the URL's origin. */
  upstream?: string;
  /** Applied to each exchange before it is keyed; HAR from other tools still holds its secrets. */
  prepare?: (exchange: HarExchange) => HarExchange;
}

/**
 * Interactions from a HAR 1.2 document, keyed by the match layer's `keyOf`; sequences follow the
 * entries' order. Entries without `_upstream` (from other tools) take `options.upstream`.
 */
export function importHar(har: unknown, keyOf: KeyOf, options: ImportOptions = {}): Interaction[] {
  const entries = harLog(har).entries;
  const sequences = new Map<string, number>();
  return entries.map((entry, index) => {
    try {
      const { upstream, request: read } = toRequest(entry, options.upstream);
      const exchange = { request: read, response: toResponse(entry.response) };
      const { request, response } = options.prepare ? options.prepare(exchange) : exchange;
      const key = keyOf(request);
      const sequence = sequences.get(key) ?? 0;
      sequences.set(key, sequence + 1);
      return { version: 1, key, sequence, recordedAt: entry.startedDateTime, upstream, request, response, durationMs: entry.time } satisfies Interaction;
    } catch (err) {
      throw new Error(`HAR entry ${index}: ${(err as Error).message}`);
    }
  });
}

/** The identity table and redaction rules of the cassette a HAR was exported from, when it was. */
export function harCassetteMeta(har: unknown): CassetteMeta | undefined {
  return harLog(har)._cassette;
}

function harLog(har: unknown): Har['log'] {
  const log = (har as Partial<Har> | undefined)?.log;
  if (log?.version === undefined || !Array.isArray(log.entries)) throw new Error('not a HAR document (no log.version and log.entries)');
  return log;
}

function toRequest(entry: HarEntry, fallbackUpstream: string | undefined): { upstream: string; request: RecordedRequest } {
  const url = new URL(entry.request.url);
  const upstream = (entry._upstream ?? fallbackUpstream ?? url.origin).replace(/\/+$/, '');
  const prefix = new URL(upstream).pathname.replace(/\/+$/, '');
  const path = prefix && url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname;
  const query: Record<string, string[]> = {};
  const given = entry.request.queryString.length ? entry.request.queryString : [...url.searchParams].map(([name, value]) => ({ name, value }));
  for (const { name, value } of given) (query[name] ??= []).push(value);
  const sorted = Object.fromEntries(Object.keys(query).sort().map((name) => [name, query[name]!]));
  const post = entry.request.postData;
  const body = post?.text ? decode(post.text, post._encoding) : undefined;
  const method = String(entry.request.method).toUpperCase();
  if (!isMethod(method)) throw new Error(`request.method ${JSON.stringify(entry.request.method)} is not an HTTP method`);
  return { upstream, request: { method, path, query: sorted, headers: headerRecord(entry.request.headers), ...(body ? { body } : {}) } };
}

/** The body's bytes as text (JSON laid out as recorded), or base64 for bytes that are not text. */
function encode(body: StoredBody): { text: string; encoding?: 'base64' } {
  return body.encoding === 'base64' ? { text: body.base64, encoding: 'base64' } : { text: bodyBytes(body).toString() };
}

/** A response as the recorder stores one: the body exact (body.ts), the Content-Encoding it arrived in noted apart. */
function toResponse(response: HarEntry['response']): RecordedResponse {
  const { 'content-encoding': contentEncoding, ...headers } = headerRecord(response.headers);
  const { text, encoding, _redacted } = response.content;
  const body = text ? exactBody(Buffer.from(text, encoding === 'base64' ? 'base64' : 'utf8'), headers['content-type']) : undefined;
  return {
    status: response.status, headers,
    ...(body ? { body: _redacted ? { ...body, redacted: true } : body } : {}),
    ...(contentEncoding ? { contentEncoding } : {}),
  };
}

/** A request body as the recorder stores one: JSON when the text parses as JSON, otherwise text; bytes stay base64. */
function decode(text: string, encoding: string | undefined): StoredBody {
  if (encoding === 'base64') return { encoding: 'base64', base64: text };
  try {
    return { encoding: 'json', json: JSON.parse(text) as unknown };
  } catch {
    return { encoding: 'text', text };
  }
}

function byteLength(body: { text: string; encoding?: 'base64' }): number {
  return body.encoding === 'base64' ? Buffer.from(body.text, 'base64').length : Buffer.byteLength(body.text);
}

function pairs(headers: Record<string, string>): HarPair[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** Lower-case names as the cassette stores them; HTTP/2 pseudo-headers dropped, repeated headers joined. */
function headerRecord(list: readonly HarPair[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of list) {
    if (name.startsWith(':')) continue;
    const lower = name.toLowerCase();
    out[lower] = out[lower] === undefined ? value : `${out[lower]}, ${value}`;
  }
  return out;
}
