/**
 * The match key: a hash of what changes the answer (method, path below the prefix, the query
 * without order, accept media type, API version, the caller's placeholder, and the body of a
 * write), computed from the redacted request so fixtures and live requests key alike.
 */
import { hash } from 'node:crypto';
import { matchEndpoint } from '../spec/catalogue.js';
import { VENDOR_WORD, vendorNames } from '../spec/vendor.js';
import type { RecordedRequest, StoredBody } from './interaction.js';

const WORD = 'vendorword';
const NAMES = vendorNames(WORD);
/** A name of spec/vendor.ts as a pattern matching it with any vendor word. */
const anyVendor = (name: string) => name.toLowerCase().replace(/[.+]/g, '\\$&').replace(WORD, VENDOR_WORD.source.replace(/^\^|\$$/g, ''));
/**
 * Any vendor's names count alike, so a cassette keys the same whatever vendor word its clients
 * use: the version header of every vendor word (X-Service-Api-Version, X-GitHub-Api-Version), and
 * media types with the vendor word folded (`vnd.github+json` matches `vnd.service+json`).
 */
const VERSION_HEADER = new RegExp(`^${anyVendor(NAMES.apiVersionHeader)}$`);
const MEDIA_VENDOR = new RegExp(`${anyVendor(`vnd.${WORD}`)}(?=[.+])`, 'g');
/**
 * Media types (as keyed, vendor word folded) that ask for the same answer: the recommended type,
 * its older `.v3` name and plain `application/json` all ask for JSON; the text-match types with
 * and without `.v3`. A request finds the fixtures of its own type first, then an equivalent's.
 */
const EQUIVALENT_MEDIA = [
  [NAMES.mediaType, NAMES.mediaTypeV3, 'application/json'],
  [NAMES.textMatchMediaType, NAMES.textMatchMediaTypeV3],
].map((names) => names.map((name) => name.replace(WORD, '*')));
/** Accept lists naming more types than this are matched as sent only (their variants multiply). */
const MAX_FOLDED_TYPES = 3;

/** The parts of a request that decide its answer, normalized. */
export interface MatchView {
  method: string;
  path: string;
  query: Record<string, string[]>;
  accept: string;
  version: string;
  identity: string | null;
  /** Canonical body of a write; undefined for reads and empty bodies. */
  body?: unknown;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function matchView(req: RecordedRequest): MatchView {
  const method = req.method.toUpperCase();
  const query: Record<string, string[]> = {};
  for (const name of Object.keys(req.query).sort()) query[name] = req.query[name] ?? [];
  const version = Object.entries(req.headers).find(([name]) => VERSION_HEADER.test(name))?.[1] ?? '';
  const body = READS.has(method) ? undefined : canonicalBody(req.body);
  return {
    method,
    path: normalizePath(req.path),
    query,
    accept: normalizeAccept(req.headers.accept ?? '', MEDIA_VENDOR),
    version: version.trim(),
    identity: identityOf(req),
    ...(body !== undefined ? { body } : {}),
  };
}

export function matchKey(view: MatchView): string {
  const parts = [view.method, view.path, Object.entries(view.query), view.accept, view.version, view.identity, view.body ?? null];
  // One-shot: a Hash object per request cost more than the digest itself.
  return hash('sha256', JSON.stringify(parts)).slice(0, 16);
}

/**
 * The keys of the same request asking for an equivalent media type (`vnd.<vendor>.v3+json` or
 * `application/json` for `vnd.<vendor>+json`...), in the order of EQUIVALENT_MEDIA; its own key is not among them.
 */
export function equivalentKeys(view: MatchView): string[] {
  const types = view.accept ? view.accept.split(',') : [];
  if (types.length > MAX_FOLDED_TYPES) return [];
  let lists: string[][] = [[]];
  for (const type of types) {
    const choices = EQUIVALENT_MEDIA.find((group) => group.includes(type)) ?? [type];
    lists = lists.flatMap((list) => choices.map((choice) => [...list, choice]));
  }
  const accepts = new Set(lists.map((list) => [...new Set(list)].sort().join(',')));
  accepts.delete(view.accept);
  return [...accepts].map((accept) => matchKey({ ...view, accept }));
}

/** The placeholder in a redacted Authorization header (`Bearer token#1` → `token#1`). */
function identityOf(req: RecordedRequest): string | null {
  const auth = req.headers.authorization;
  return auth ? auth.trim().split(/\s+/).pop() ?? null : null;
}

/** Method and route template (or the path, off the catalogue): near misses are looked for among these. */
export function routeOf(request: Pick<RecordedRequest, 'method' | 'path'>): string {
  const method = request.method.toUpperCase();
  const path = normalizePath(request.path);
  return `${method} ${matchEndpoint(method, path)?.endpoint.path ?? path}`;
}

function normalizePath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function normalizeAccept(accept: string, vendor: RegExp): string {
  return accept.split(',')
    .map((t) => (t.split(';')[0] ?? '').trim().toLowerCase().replace(vendor, 'vnd.*'))
    .filter((t) => t && t !== '*/*')
    .sort()
    .join(',');
}

function canonicalBody(body: StoredBody | undefined): unknown {
  if (!body) return undefined;
  if (body.encoding === 'json') return sortDeep(body.json);
  return body.encoding === 'text' ? body.text : `base64:${body.base64}`;
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortDeep((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** One way a fixture differs from the request sent; an absent side is left out. */
export interface Difference {
  field: string;
  recorded?: unknown;
  sent?: unknown;
}

const MAX_BODY_DIFFERENCES = 5;

/** What differs between a recorded request and the one sent, field by field (for the near-miss report). */
export function differences(recorded: MatchView, sent: MatchView): Difference[] {
  const out: Difference[] = [];
  const add = (field: string, r: unknown, s: unknown) => {
    if (JSON.stringify(r) !== JSON.stringify(s)) out.push({ field, ...(r !== undefined ? { recorded: r } : {}), ...(s !== undefined ? { sent: s } : {}) });
  };
  add('method', recorded.method, sent.method);
  add('path', recorded.path, sent.path);
  for (const name of [...new Set([...Object.keys(recorded.query), ...Object.keys(sent.query)])].sort()) {
    const single = (v: string[] | undefined) => (v && v.length === 1 ? v[0] : v);
    add(`query ${name}`, single(recorded.query[name]), single(sent.query[name]));
  }
  add('header accept', recorded.accept || undefined, sent.accept || undefined);
  add('header api-version', recorded.version || undefined, sent.version || undefined);
  add('identity', recorded.identity ?? 'anonymous', sent.identity ?? 'anonymous');
  const bodyDiffs: Difference[] = [];
  diffJson('body', recorded.body, sent.body, bodyDiffs);
  out.push(...bodyDiffs.slice(0, MAX_BODY_DIFFERENCES));
  return out;
}

/** Field-level differences of two JSON values, named by JSON pointer under `at`. */
function diffJson(at: string, r: unknown, s: unknown, out: Difference[]): void {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(r) && isObject(s)) {
    for (const k of [...new Set([...Object.keys(r), ...Object.keys(s)])].sort()) diffJson(`${at}/${k}`, r[k], s[k], out);
  } else if (Array.isArray(r) && Array.isArray(s) && r.length === s.length) {
    r.forEach((v, i) => diffJson(`${at}/${i}`, v, s[i], out));
  } else if (JSON.stringify(r) !== JSON.stringify(s)) {
    out.push({ field: at, ...(r !== undefined ? { recorded: r } : {}), ...(s !== undefined ? { sent: s } : {}) });
  }
}
