/**
 * Removes secrets from an exchange before it is keyed or stored, with the one redactor
 * (core/redact/) and credential placeholders on top. The same rules run on the live request before
 * matching, so a redacted fixture matches the request that produced it. Credentials become stable
 * placeholders (`token#1`), so different callers still match differently; every secret value seen
 * is also scrubbed from the rest of the exchange (an echo). Redacting an exchange already redacted
 * changes nothing, so a cassette's own HAR goes through it again on import.
 */
import { isDeepStrictEqual } from 'node:util';
import { parseCredential } from '../core/redact/credentials.js';
import { Redactor } from '../core/redact/redactor.js';
import { MASK, type RedactionRules } from '../core/redact/rules.js';
import { parseJson, storeBody } from './body.js';
import type { Identities } from './identities.js';
import type { RecordedRequest, RecordedResponse, StoredBody } from './interaction.js';

/** A credential already redacted: a placeholder of identities.ts (`token#1`) or the mask. */
const alreadyRedacted = (value: string) => value === MASK || /^token#\d+$/.test(value);

/** Rules from several sources (a cassette's, the command line's) as one: header names lower-case, each name once, sorted. */
export function mergeRules(...sources: { headers?: readonly string[] | undefined; fields?: readonly string[] | undefined }[]): { headers: string[]; fields: string[] } {
  const merged = (names: readonly string[]) => [...new Set(names)].sort();
  return {
    headers: merged(sources.flatMap((s) => s.headers ?? []).map((h) => h.toLowerCase())),
    fields: merged(sources.flatMap((s) => s.fields ?? [])),
  };
}

export interface LiveRequest {
  method: string;
  /** Path below the prefix, as sent. */
  path: string;
  query: URLSearchParams;
  /** Lower-case names, hop-by-hop headers already removed. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface RedactedRequest {
  request: RecordedRequest;
  /** The caller's placeholder, null when anonymous. */
  identity: string | null;
  /** Knows this request's secrets, to clean the response that answers it. */
  scrub: Redactor;
  /** The same request redacted again gives this result: every placeholder handed out lasts (see Identities.lasting). */
  repeatable: boolean;
}

export class ExchangeRedactor {
  /** `known`: secrets of the proxy's own (the target URL's userinfo), scrubbed from every exchange. */
  constructor(private readonly identities: Identities, private readonly rules: RedactionRules, private readonly known: readonly string[] = []) {}

  request(live: LiveRequest): RedactedRequest {
    const scrub = new Redactor(this.rules, this.known);
    const masked: Record<string, string> = {};
    let identity: string | null = null;
    let repeatable = true;
    const placeholder = (secret: string) => {
      const given = this.identities.placeholder(secret);
      repeatable &&= this.identities.lasting(given);
      return given;
    };
    // Secrets are collected first, then scrubbed from everything, so their order in the request does not matter.
    for (const [name, value] of Object.entries(live.headers)) {
      if (name === 'authorization') {
        const given = value.trim().split(/\s+/).pop() ?? '';
        identity = alreadyRedacted(given) ? given : placeholder(parseCredential(value).secret);
        masked[name] = alreadyRedacted(given) ? value : scrub.credential(value, identity);
      } else if (scrub.names.header(name)) masked[name] = scrub.header(name, value);
    }
    const query: Record<string, string[]> = {};
    for (const name of [...new Set(live.query.keys())].sort()) {
      const values = live.query.getAll(name);
      query[name] = scrub.names.pair(name) ? values.map((v) => {
        if (alreadyRedacted(v)) return v;
        const given = placeholder(v);
        scrub.learn(v, given);
        return given;
      }) : values;
    }
    // The body before the rest: the secrets of a form are learned as it is masked.
    const redacted = this.cleanBody(storeBody(live.body, live.headers['content-type']), live.headers['content-type'], scrub);
    const headers = Object.fromEntries(Object.entries(live.headers).map(([name, value]) => [name, masked[name] ?? scrub.text(value)]));
    for (const [name, values] of Object.entries(query)) if (!scrub.names.pair(name)) query[name] = values.map((v) => scrub.text(v));
    return {
      request: { method: live.method, path: scrub.text(live.path), query, headers: sortKeys(headers), ...(redacted ? { body: redacted } : {}) },
      identity,
      scrub,
      repeatable,
    };
  }

  /** `stored` as body.ts's exactBody stores it: its bytes are kept wherever masking leaves them be. */
  response(status: number, liveHeaders: Record<string, string>, stored: StoredBody | undefined, scrub: Redactor): RecordedResponse {
    // Headers are read twice: the secrets of secret headers are learned before the body is masked, and the body's before the headers are.
    scrub.headers(liveHeaders);
    const redacted = cleanExactBody(stored, liveHeaders['content-type'], scrub);
    return { status, headers: sortKeys(scrub.headers(liveHeaders)), ...(redacted ? { body: redacted } : {}) };
  }

  /**
   * JSON under another content type (`curl -d` declares a form) is stored as text, where its secret
   * fields would go unseen: such a body holding one is stored as JSON, so the field is masked.
   */
  private exposeFields(body: StoredBody | undefined, scrub: Redactor): StoredBody | undefined {
    if (body?.encoding !== 'text') return body;
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch {
      return body;
    }
    return scrub.holdsField(json) ? { encoding: 'json', json } : body;
  }

  /** The body masked; its secrets (fields, form pairs) are learned first, so an echo of one anywhere in it goes too. */
  private cleanBody(stored: StoredBody | undefined, contentType: string | undefined, scrub: Redactor): StoredBody | undefined {
    const body = this.exposeFields(stored, scrub);
    if (body?.encoding === 'json') return { encoding: 'json', json: scrub.json(body.json) };
    if (body?.encoding === 'text') return { encoding: 'text', text: scrub.body(body.text, contentType) };
    return body;
  }
}

/**
 * A response body masked where it must be and byte for byte as received elsewhere; `redacted` when
 * the masking changed it. JSON is masked on its parsed value (secret fields of any value, at any
 * depth), then on its text; the text stands only when it reads as exactly the masked value, with
 * no member named twice (JSON.parse keeps the last of two, so the first would go unseen). Otherwise
 * the masked value is stored, re-serialized. Bytes that are not UTF-8 are masked as Latin-1, which
 * maps each byte to one character and back, so a secret written in ASCII among them goes too.
 */
function cleanExactBody(body: StoredBody | undefined, contentType: string | undefined, scrub: Redactor): StoredBody | undefined {
  if (!body) return body;
  if (body.encoding === 'base64') {
    const latin1 = Buffer.from(body.base64, 'base64').toString('latin1');
    const masked = scrub.text(latin1);
    return masked === latin1 ? body : { encoding: 'base64', base64: Buffer.from(masked, 'latin1').toString('base64'), redacted: true };
  }
  if (body.encoding === 'json') {
    const json = scrub.json(body.json);
    return isDeepStrictEqual(json, body.json) ? body : { ...body, json, redacted: true };
  }
  const parsed = parseJson(body.text);
  if (!parsed) {
    const text = scrub.body(body.text, contentType);
    return text === body.text ? body : { encoding: 'text', text, redacted: true };
  }
  const json = scrub.json(parsed.value);
  const text = scrub.body(body.text, contentType);
  const reread = text === body.text ? parsed : parseJson(text);
  if (reread && isDeepStrictEqual(reread.value, json) && membersIn(text) === membersOf(json)) {
    return text === body.text ? body : { encoding: 'text', text, redacted: true };
  }
  return { encoding: 'json', json, redacted: true };
}

/** Object members written in JSON text: one colon outside strings each. */
function membersIn(text: string): number {
  let n = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x3a) n++;
  }
  return n;
}

/** Object members of a parsed JSON value (without recursion: the value may nest deep). */
function membersOf(value: unknown): number {
  let n = 0;
  const work = [value];
  for (let v = work.pop(); v !== undefined; v = work.pop()) {
    if (v === null || typeof v !== 'object') continue;
    const children = Object.values(v);
    if (!Array.isArray(v)) n += children.length;
    for (const child of children) work.push(child);
  }
  return n;
}

function sortKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)));
}
