/**
 * The pipeline every search endpoint shares: validate q, resolve which repositories the caller
 * may search (private data, resource qualifiers, single sign-on), match, score, order, page, render.
 */
import { LIMITS, RESOURCE_QUALIFIERS } from '../../../spec/limits.js';
import { VALIDATION_FAILED } from '../../../spec/vocabulary.js';
import { canRead, ssoBlocks } from '../../access.js';
import { error, intParam, json, paginate, type HandlerContext, type HandlerResult } from '../../http.js';
import { ssoPartialHeader } from '../../policy.js';
import type { Repo, World } from '../../world.js';
import { evaluate, occurrences, parseQuery, positiveTerms, qualifierValues, QuerySyntaxError, type ParsedQuery, type Qualifier } from './query.js';

/** A searchable property: `name` is its `in:` value; `property` names it in text matches (none: not reported). */
export interface Field<R> {
  name: string;
  property?: string;
  weight: number;
  texts(r: R): string[];
  /** The resource holding the n-th text, when it is not the record itself (an issue's comments). */
  object?(ctx: HandlerContext, r: R, n: number): { url: string; type: string };
}

export interface Kind<R> {
  /** Qualifiers the endpoint understands; any other `x:y` word is a keyword. */
  qualifiers: ReadonlySet<string>;
  fields: Field<R>[];
  /** Repository holding the record; undefined when the endpoint is not scoped by repository (labels). */
  repoId?(r: R): number;
  /** Endpoint-specific qualifiers and indexing rules (default branch, file size). */
  filter?(ctx: HandlerContext, r: R, qualifiers: Qualifier[]): boolean;
  sorts: Record<string, (r: R, ctx: HandlerContext) => number>;
  id(r: R): number;
  render(ctx: HandlerContext, r: R, score: number): Record<string, unknown>;
  /** The resource text matches point at. */
  object(ctx: HandlerContext, r: R): { url: string; type: string };
  /** Code search: "q must contain at least one search term (a qualifier alone is invalid)". */
  requiresTerm?: boolean;
  /** Issue search with a user-to-server app token must say what it searches. */
  requiresIsQualifier?: boolean;
}

/** Not shown: the platform's default page size. */
const DEFAULT_PER_PAGE = 30;
/** Not shown: fragment width of text matches (the platform trims long properties too). */
const FRAGMENT = 160;

interface SearchError {
  resource: string;
  field: string;
  code: string;
  message: string;
}

/** The search-specific 422: "message 'Validation failed'" with an errors array. */
export function invalid(ctx: HandlerContext, errors: SearchError[]): HandlerResult {
  return error(422, broken(ctx, '422-wrong-message') ? 'Unprocessable Entity' : VALIDATION_FAILED, { errors });
}

const qError = (message: string, code = 'invalid'): SearchError => ({ resource: 'Search', field: 'q', code, message });

/** A fault everywhere, or only on this endpoint: `search-code-score-ascending` breaks what `search-score-ascending` breaks, on code search alone. */
const broken = (ctx: HandlerContext, fault: string) => ctx.fault(`search-${fault}`) || ctx.fault(`${ctx.endpoint.id.replace('.', '-')}-${fault}`);

export function runSearch<R>(ctx: HandlerContext, kind: Kind<R>, records: readonly R[]): HandlerResult {
  if (!ctx.caller.token && broken(ctx, 'anonymous-refused')) return error(401, 'Requires authentication');
  const parsed = validate(ctx, kind);
  if ('status' in parsed) return parsed;
  const { qualifiers, expr } = parsed;

  let headers: Record<string, string> = {};
  let inScope: ((r: R) => boolean) = () => true;
  if (kind.repoId) {
    const scope = resolveScope(ctx, qualifiers);
    if (scope === 'inaccessible') {
      return invalid(ctx, [qError('The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.')]);
    }
    if (!ctx.fault('search-sso-no-partial-header')) headers = ssoPartialHeader(ctx.names, scope.ssoOrgIds);
    const repoId = kind.repoId;
    inScope = (r) => scope.repoIds.has(repoId(r));
  }

  const cap = broken(ctx, 'per-page-uncapped') ? Number.POSITIVE_INFINITY : ctx.endpoint.perPage?.max ?? LIMITS.search.maxPerPage;
  const reachable = broken(ctx, 'beyond-1000-reachable') ? Number.POSITIVE_INFINITY : LIMITS.search.reachableResults;
  const perPage = Math.min(Math.max(intParam(ctx.query.get('per_page'), DEFAULT_PER_PAGE), 1), cap);
  const page = Math.max(intParam(ctx.query.get('page'), 1), 1);
  if ((page - 1) * perPage >= reachable) {
    // Not one of the spec's listed cases; the platform answers it with its own 422 message.
    return error(422, `Only the first ${reachable} search results are available`);
  }

  const requested = new Set(qualifierValues(qualifiers, 'in'));
  const chosen = kind.fields.filter((f) => requested.has(f.name));
  const fields = chosen.length ? chosen : kind.fields;
  const terms = [...new Set(positiveTerms(expr).map((t) => t.toLowerCase()))];
  const matched: { r: R; score: number }[] = [];
  for (const r of records) {
    if (!inScope(r) || (kind.filter && !kind.filter(ctx, r, qualifiers))) continue;
    if (expr && !evaluate(expr, fields.flatMap((f) => f.texts(r)))) continue;
    matched.push({ r, score: score(r, fields, terms) });
  }
  order(ctx, kind, matched);

  const { items, headers: link } = paginate(ctx, matched, { max: cap, default: DEFAULT_PER_PAGE, reachable });
  const withMatches = ctx.textMatch && !broken(ctx, 'text-match-ignored');
  const total = ctx.fault('search-total-count-capped') ? Math.min(matched.length, LIMITS.search.reachableResults) : matched.length;
  return json(200, {
    total_count: total,
    incomplete_results: ctx.fault('search-incomplete-results-string') ? 'false' : false,
    items: items.map(({ r, score: s }) => {
      const item = kind.render(ctx, r, s);
      if (withMatches) item.text_matches = textMatches(ctx, kind, fields, r, terms);
      return item;
    }),
  }, { ...headers, ...link });
}

const IS_TYPE = new Set(['issue', 'pull-request', 'pr']);

/** The search-specific 422 cases that depend on q alone (and on the token kind). */
function validate<R>(ctx: HandlerContext, kind: Kind<R>): ParsedQuery | HandlerResult {
  const q = ctx.query.get('q') ?? '';
  if (!q.trim() && !ctx.fault('search-missing-q-accepted')) return invalid(ctx, [qError('q is missing', 'missing')]);
  let parsed: ParsedQuery;
  try {
    parsed = parseQuery(q, kind.qualifiers);
  } catch (e) {
    if (e instanceof QuerySyntaxError) return invalid(ctx, [qError(`The search query is malformed: ${e.message}.`)]);
    throw e;
  }
  const { maxQueryLength, maxOperators } = LIMITS.search;
  const counted = ctx.fault('search-q-length-counts-qualifiers') ? q.trim().length : parsed.keywordLength;
  if (counted > maxQueryLength && !broken(ctx, 'q-length-unchecked')) {
    return invalid(ctx, [qError(`The search is longer than ${maxQueryLength} characters.`)]);
  }
  const operatorsOver = ctx.fault('search-operators-five-refused') ? parsed.operators >= maxOperators : parsed.operators > maxOperators;
  if (operatorsOver && !broken(ctx, 'operators-unlimited')) {
    return invalid(ctx, [qError(`The search contains more than ${maxOperators} AND / OR / NOT operators.`)]);
  }
  // A q left out altogether is the missing-q case above (admitted only by its fault), not a qualifier alone.
  if (kind.requiresTerm && !parsed.expr && q.trim() && !ctx.fault('search-code-qualifier-only-accepted')) {
    return invalid(ctx, [qError('Must include at least one user, organization, or repository and a search term.')]);
  }
  const typed = qualifierValues(parsed.qualifiers, 'is').some((v) => IS_TYPE.has(v));
  if (kind.requiresIsQualifier && ctx.caller.token?.kind === 'app-user' && !typed && !ctx.fault('search-app-user-without-is-accepted')) {
    return invalid(ctx, [qError('Query must include "is:issue" or "is:pull-request" when searching with a user-to-server token.')]);
  }
  return parsed;
}

/** Best match: every occurrence of a wanted keyword, weighted by the property it is in. */
function score<R>(r: R, fields: Field<R>[], terms: string[]): number {
  if (!terms.length) return 1;
  let total = 0;
  for (const f of fields) for (const text of f.texts(r)) for (const t of terms) total += occurrences(text, t).length * f.weight;
  return total;
}

/**
 * "Default ordering: best match, descending." A known `sort` orders by that key (`order` asc or
 * desc, default desc; best match breaks ties); unknown sort values fall back to best match and
 * `order` is then ignored, as on the platform.
 */
function order<R>(ctx: HandlerContext, kind: Kind<R>, matched: { r: R; score: number }[]): void {
  const sort = ctx.query.get('sort');
  const key = sort && Object.hasOwn(kind.sorts, sort) ? kind.sorts[sort] : undefined;
  const dir = ctx.query.get('order') === 'asc' ? 1 : -1;
  const best = broken(ctx, 'score-ascending') ? 1 : -1;
  matched.sort((a, b) => (key ? dir * (key(a.r, ctx) - key(b.r, ctx)) : 0) || best * (a.score - b.score) || kind.id(b.r) - kind.id(a.r));
}

interface Scope {
  repoIds: Set<number>;
  ssoOrgIds: number[];
}

/**
 * Which repositories the search covers. Private ones only for readers; those of organizations
 * the classic token is not authorized for (single sign-on) are omitted and named in the partial-results
 * header. repo:/user:/org: narrow the scope: all of them inaccessible is a 422, some is silent filtering.
 */
function resolveScope(ctx: HandlerContext, qualifiers: readonly Qualifier[]): Scope | 'inaccessible' {
  const world = ctx.state.world;
  const includeSso = ctx.fault('search-sso-results-included');
  const leak = ctx.fault('search-inaccessible-leaks');
  const ssoBlocked = (r: Repo) => ssoBlocks(world, ctx.caller, r.owner);
  const visible = (r: Repo) => canRead(world, ctx.caller, r) && (includeSso || !ssoBlocked(r));
  const named = qualifiers.filter((q) => (RESOURCE_QUALIFIERS as readonly string[]).includes(q.name));

  // The search-only repositories (corpus.ts) are searchable like the world's, and scoped by repo:/user: alike.
  const searchable = [...world.liveRepos(), ...ctx.state.search.corpus.searchRepos];
  let pool = searchable;
  let repos = pool.filter(visible);
  if (named.length) {
    // With the fault, user:/org: naming no account at all is taken as an empty but accessible scope.
    const resolved = named.map((q) => namedResource(world, searchable, q) ?? (q.name !== 'repo' && ctx.fault(`search-${q.name}-unknown-accepted`) ? { login: q.value, repos: [] } : undefined));
    pool = resolved.flatMap((n) => n?.repos ?? []);
    const accessible = resolved.filter((n): n is NamedResource => n !== undefined
      && (leak || (n.repo ? visible(n.repo) : includeSso || !ssoBlocks(world, ctx.caller, n.login))));
    const partial = accessible.length < named.length;
    if ((!accessible.length || (partial && ctx.fault('search-partial-access-refused'))) && !leak && !ctx.fault('search-inaccessible-empty')) {
      return 'inaccessible';
    }
    repos = accessible.flatMap((n) => n.repos).filter((r) => leak || visible(r));
  }
  const ssoOrgIds = new Set<number>();
  for (const r of pool) if (ssoBlocked(r) && canRead(world, ctx.caller, r)) ssoOrgIds.add(world.orgs.get(r.owner)!.id);
  return { repoIds: new Set(repos.map((r) => r.id)), ssoOrgIds: [...ssoOrgIds] };
}

interface NamedResource {
  login: string;
  /** Set for repo:, whose own visibility decides; user: and org: name an account. */
  repo?: Repo;
  repos: Repo[];
}

/** What a resource qualifier names; undefined when the resource does not exist. */
function namedResource(world: World, searchable: readonly Repo[], q: Qualifier): NamedResource | undefined {
  if (q.name === 'repo') {
    const [owner, name, extra] = q.value.split('/');
    const repo = owner && name && extra === undefined ? searchable.find((r) => r.owner === owner && r.name === name) : undefined;
    return repo ? { login: repo.owner, repo, repos: [repo] } : undefined;
  }
  const account = q.name === 'org' ? world.orgs.get(q.value) : world.account(q.value);
  if (!account) return undefined;
  return { login: account.login, repos: searchable.filter((r) => r.owner === account.login) };
}

/** Text-match metadata for each reported property holding a wanted keyword; indices are relative to the fragment. */
function textMatches<R>(ctx: HandlerContext, kind: Kind<R>, fields: Field<R>[], r: R, terms: string[]): Record<string, unknown>[] {
  const shift = ctx.fault('search-text-match-off-by-one') ? 1 : 0;
  const out: Record<string, unknown>[] = [];
  for (const f of fields) {
    if (!f.property) continue;
    for (const [n, value] of f.texts(r).entries()) {
      const object = f.object?.(ctx, r, n) ?? kind.object(ctx, r);
      const hits = terms.flatMap((t) => occurrences(value, t).map((s) => [s, s + t.length] as const)).sort((a, b) => a[0] - b[0]);
      const first = hits[0];
      if (!first) continue;
      const start = value.length <= FRAGMENT ? 0 : Math.max(0, Math.min(first[0] - FRAGMENT / 4, value.length - FRAGMENT));
      const end = Math.min(value.length, start + FRAGMENT);
      const fragment = value.slice(start, end);
      out.push({
        object_url: ctx.fault('search-text-match-object-url-relative') ? new URL(object.url).pathname : object.url,
        object_type: object.type,
        property: ctx.fault('search-commits-text-match-property') && f.property === 'message' ? 'commit.message' : f.property,
        fragment: ctx.fault('search-text-match-fragment-uppercased') ? fragment.toUpperCase() : fragment,
        matches: hits.filter(([s, e]) => s >= start && e <= end)
          .map(([s, e]) => ({ text: value.slice(s, e), indices: [s - start + shift, e - start + shift] })),
      });
    }
  }
  return out;
}
