/**
 * Removes secrets from an exchange before it is keyed or stored. The same rules run on the live
 * request before matching, so a redacted fixture matches the request that produced it.
 * Credentials become stable placeholders (`token#1`), so different callers still match
 * differently; every secret value seen is also scrubbed from the rest of the exchange (an echo).
 */
import { MASK, MIN_SECRET_LENGTH, SECRET_FIELDS, SECRET_HEADERS } from '../src/redact.js';
import { mapStrings, storeBody } from './body.js';
import type { Identities } from './identities.js';
import type { RecordedRequest, RecordedResponse, StoredBody } from './interaction.js';

const PEM_MASK = '[REDACTED PRIVATE KEY]';
const PEM = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g;
/** Query parameters that carry credentials; their values become identity placeholders. */
const SECRET_QUERY_PARAMS = ['access_token', 'token', 'client_secret', 'private_token', 'api_key'];

/** Replaces known secret values, and private keys, wherever they occur in a string. */
export class Scrubber {
  private pairs: [string, string][] = [];

  add(secret: string, replacement: string): void {
    if (secret.length < MIN_SECRET_LENGTH || this.pairs.some(([s]) => s === secret)) return;
    this.pairs.push([secret, replacement]);
    // Longest first, so a secret containing another is replaced whole.
    this.pairs.sort((a, b) => b[0].length - a[0].length);
  }

  text(value: string): string {
    let out = value.replace(PEM, PEM_MASK);
    for (const [secret, replacement] of this.pairs) out = out.split(secret).join(replacement);
    return out;
  }
}

export interface RedactionRules {
  /** Extra header names to mask (any case). */
  headers: readonly string[];
  /** Extra body field and query parameter names to mask. */
  fields: readonly string[];
}

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
  scrub: Scrubber;
}

export class ExchangeRedactor {
  private readonly headers: Set<string>;
  private readonly fields: Set<string>;
  private readonly queryParams: Set<string>;

  constructor(private readonly identities: Identities, rules: RedactionRules) {
    this.headers = new Set([...SECRET_HEADERS, ...rules.headers.map((h) => h.toLowerCase())]);
    this.fields = new Set([...SECRET_FIELDS, ...rules.fields]);
    this.queryParams = new Set([...SECRET_QUERY_PARAMS, ...rules.fields]);
  }

  request(live: LiveRequest): RedactedRequest {
    const scrub = new Scrubber();
    const headers: Record<string, string> = {};
    let identity: string | null = null;
    // Secrets are collected first, then scrubbed from everything, so their order in the request does not matter.
    for (const [name, value] of Object.entries(live.headers)) {
      if (name === 'authorization') {
        const credential = parseCredential(value);
        identity = this.identities.placeholder(credential.secret);
        for (const s of [credential.secret, ...credential.parts]) scrub.add(s, identity);
        headers[name] = credential.scheme ? `${credential.scheme} ${identity}` : identity;
      } else if (this.headers.has(name)) {
        for (const s of secretParts(name, value)) scrub.add(s, MASK);
        headers[name] = MASK;
      }
    }
    const query: Record<string, string[]> = {};
    for (const name of [...new Set(live.query.keys())].sort()) {
      const values = live.query.getAll(name);
      if (this.queryParams.has(name)) {
        query[name] = values.map((v) => {
          const placeholder = this.identities.placeholder(v);
          scrub.add(v, placeholder);
          return placeholder;
        });
      } else query[name] = values;
    }
    const body = this.exposeFields(storeBody(live.body, live.headers['content-type']));
    this.collectFields(body, scrub);
    for (const [name, value] of Object.entries(live.headers)) if (!(name in headers)) headers[name] = scrub.text(value);
    for (const values of Object.values(query)) values.forEach((v, i) => { values[i] = scrub.text(v); });
    const redacted = this.cleanBody(body, scrub);
    return {
      request: { method: live.method, path: scrub.text(live.path), query, headers: sortKeys(headers), ...(redacted ? { body: redacted } : {}) },
      identity,
      scrub,
    };
  }

  response(status: number, liveHeaders: Record<string, string>, stored: StoredBody | undefined, scrub: Scrubber): RecordedResponse {
    const body = this.exposeFields(stored);
    this.collectFields(body, scrub);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(liveHeaders)) if (this.headers.has(name)) for (const s of secretParts(name, value)) scrub.add(s, MASK);
    for (const [name, value] of Object.entries(liveHeaders)) headers[name] = this.headers.has(name) ? MASK : scrub.text(value);
    const redacted = this.cleanBody(body, scrub);
    return { status, headers: sortKeys(headers), ...(redacted ? { body: redacted } : {}) };
  }

  /**
   * JSON under another content type (`curl -d` declares a form) is stored as text, where its secret
   * fields would go unseen: such a body holding one is stored as JSON, so the field is masked.
   */
  private exposeFields(body: StoredBody | undefined): StoredBody | undefined {
    if (body?.encoding !== 'text') return body;
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch {
      return body;
    }
    return this.holdsField(json) ? { encoding: 'json', json } : body;
  }

  private holdsField(value: unknown): boolean {
    if (Array.isArray(value)) return value.some((v) => this.holdsField(v));
    return !!value && typeof value === 'object' && Object.entries(value).some(([k, v]) => this.fields.has(k) || this.holdsField(v));
  }

  /** Values of secret fields are secrets wherever else they appear (an echo in another field or a message). */
  private collectFields(body: StoredBody | undefined, scrub: Scrubber): void {
    if (body?.encoding !== 'json') return;
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (this.fields.has(k) && typeof v === 'string') scrub.add(v, MASK);
          else walk(v);
        }
      }
    };
    walk(body.json);
  }

  private cleanBody(body: StoredBody | undefined, scrub: Scrubber): StoredBody | undefined {
    if (body?.encoding !== 'json') return mapStrings(body, (s) => scrub.text(s));
    return mapStrings({ encoding: 'json', json: this.maskFields(body.json) }, (s) => scrub.text(s));
  }

  private maskFields(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.maskFields(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.fields.has(k) && v !== null ? MASK : this.maskFields(v)]));
    }
    return value;
  }
}

interface Credential {
  scheme: string | null;
  /** What identifies the caller: the token, or `user:secret` of a Basic credential. */
  secret: string;
  /** Other forms of the same secret that could be echoed (the base64 text, the password alone). */
  parts: string[];
}

function parseCredential(value: string): Credential {
  const m = /^(\S+)\s+(.+)$/.exec(value.trim());
  if (!m) return { scheme: null, secret: value.trim(), parts: [] };
  const [, scheme = '', rest = ''] = m;
  if (scheme.toLowerCase() !== 'basic') return { scheme, secret: rest.trim(), parts: [] };
  const decoded = Buffer.from(rest.trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return { scheme, secret: decoded, parts: [rest.trim(), ...(colon >= 0 ? [decoded.slice(colon + 1)] : [])] };
}

/** The secret pieces of a masked header: the credential after the scheme, or each cookie value. */
function secretParts(name: string, value: string): string[] {
  if (name === 'cookie') return value.split(';').map((p) => p.slice(p.indexOf('=') + 1).trim());
  // Each Set-Cookie starts with name=value; attributes after `;` (Path, Expires) are not secret.
  if (name === 'set-cookie') return [...value.matchAll(/(?:^|,)\s*[^=;,\s]+=([^;,]*)/g)].map((m) => (m[1] ?? '').trim());
  const m = /^\S+\s+(.+)$/.exec(value.trim());
  return [value.trim(), ...(m?.[1] ? [m[1]] : [])];
}

function sortKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)));
}
