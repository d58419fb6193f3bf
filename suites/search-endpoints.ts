/**
 * Search rules checked on every endpoint they govern, not on issue search alone. These checks
 * search anonymously ("Anonymous requests work for public data"): the unauthenticated window of
 * ten a minute is separate from the authenticated one the rest of the run spends.
 */
import { endpointById } from '../spec/catalogue.js';
import { LIMITS } from '../spec/limits.js';
import { VALIDATION_FAILED } from '../spec/vocabulary.js';
import { judgeQuotedMessage } from '../core/wording.js';
import type { Reply, RequestOptions } from '../core/client.js';
import { expectRefusal } from '../core/refusal.js';
import type { CheckContext, CheckSpec } from '../core/suite.js';
import { REQUESTS, SEARCH_CALLER, spareSearchCaller } from './requests.js';

interface TextMatch { object_url?: unknown; object_type?: unknown; property?: unknown; fragment?: unknown; matches?: { text?: unknown; indices?: unknown }[] }
interface Item { score?: unknown; text_matches?: unknown; url?: unknown; repository?: { full_name?: unknown }; full_name?: unknown; [field: string]: unknown }
interface Envelope { total_count?: unknown; items?: Item[] }

const enc = encodeURIComponent;
const keyword = (t: CheckContext) => t.resources.search_keyword ?? 'test';

interface Kind {
  name: 'code' | 'commits' | 'labels' | 'repositories';
  needs: NonNullable<CheckSpec['needs']>;
  extra(t: CheckContext): string;
  /** "Code search supplies matches for file content and file path; commits for `message`; …": property names, where the spec gives them. */
  properties?: readonly string[];
  /** Where an item keeps the properties of the resource its own `url` names, when not at its top level (a commit item's `commit`). */
  holder?: (item: Item) => unknown;
}

const KINDS: Kind[] = [
  { name: 'code', needs: {}, extra: () => '' },
  { name: 'commits', needs: {}, extra: () => '', properties: ['message'], holder: (i) => i.commit },
  { name: 'labels', needs: { resources: ['label_repository_id'] }, extra: (t) => `&repository_id=${t.resources.label_repository_id}`, properties: ['name', 'description'] },
  { name: 'repositories', needs: {}, extra: () => '', properties: ['name', 'description'] },
];

/**
 * One anonymous search per kind, shared by the checks of that kind: the keyword, per_page=101 (the
 * cap shows when more than 100 match) and the text-match media type. The client's `reuse` answers
 * the later checks from the first one's reply and lists that exchange in each check's transcript.
 */
function kindSearch(t: CheckContext, kind: Kind): Promise<Reply> {
  return t.request({ path: kindPath(t, kind), as: null, headers: { accept: t.names.textMatchMediaType }, reuse: true });
}

const kindPath = (t: CheckContext, kind: Kind) => `/search/${kind.name}?q=${enc(keyword(t))}&per_page=${LIMITS.search.maxPerPage + 1}${kind.extra(t)}`;

/** The shared search's items; skips as inconclusive when it found nothing to look at. */
async function items(t: CheckContext, kind: Kind): Promise<{ items: Item[]; total: unknown }> {
  const r = await kindSearch(t, kind);
  if (r.status !== 200) t.skip('inconclusive', `anonymous GET /search/${kind.name} for "${keyword(t)}" answered ${r.status}`);
  const body = r.json as Envelope | undefined;
  const found = Array.isArray(body?.items) ? body.items : [];
  if (!found.length) t.skip('inconclusive', `anonymous ${kind.name} search for "${keyword(t)}" found nothing`);
  return { items: found, total: body?.total_count };
}

function perKind(kind: Kind): CheckSpec[] {
  const ep = `GET /search/${kind.name}`;
  return [
    {
      id: `search.best-match-descending.${kind.name}`, title: `${ep}: default ordering is best match, descending`, requirement: 'search.best-match-descending', needs: kind.needs,
      async run(t) {
        const scores = (await items(t, kind)).items.map((i) => i.score);
        if (!scores.every((s) => typeof s === 'number')) return t.skip('inconclusive', 'items carry no numeric score to order by');
        const n = scores as number[];
        if (new Set(n).size < 2) return t.skip('inconclusive', `every item scores ${n[0]}: the order cannot be seen`);
        const at = n.findIndex((s, i) => i > 0 && s > n[i - 1]!);
        if (at > 0) t.fail(`${ep}: item ${at} has score ${n[at]} after ${n[at - 1]}: not descending`);
      },
    },
    {
      id: `search.per-page-max-100.${kind.name}`, title: `${ep}: per_page is capped at 100`, requirement: 'search.per-page-max-100', needs: kind.needs,
      async run(t) {
        const { items: found, total } = await items(t, kind);
        if (found.length > LIMITS.search.maxPerPage) return t.fail(`${ep}: per_page=101 returned ${found.length} items`);
        if (typeof total !== 'number' || total <= LIMITS.search.maxPerPage) t.skip('inconclusive', `${total} matches: the cap shows only past 100`);
      },
    },
    {
      id: `search.reachable-1000.${kind.name}`, title: `${ep}: at most 1,000 results are reachable`, requirement: 'search.reachable-1000', needs: kind.needs,
      async run(t) {
        const { total } = await items(t, kind);
        const { reachableResults: reachable, maxPerPage: per } = LIMITS.search;
        if (typeof total !== 'number' || total <= reachable) return t.skip('missing-resource', `"${keyword(t)}" matches ${total} in ${kind.name} search; more than ${reachable} are needed to observe the cap`);
        const page = reachable / per + 1;
        const r = await t.request({ path: `/search/${kind.name}?q=${enc(keyword(t))}&per_page=${per}&page=${page}${kind.extra(t)}`, as: spareSearchCaller(t) });
        const past = r.status === 200 ? ((r.json as Envelope | undefined)?.items?.length ?? 0) : 0;
        // Past the cap: no items, or a refusal (406, 415 and 429 refuse something else).
        if (past) t.fail(`${ep}: page ${page} of ${per} returned ${past} results past the first ${reachable}`);
        else if (r.status === 429 || r.status >= 500) t.inconclusive(`${ep}: page ${page} answered ${r.status}`);
        else if (r.status !== 200 && (r.status < 400 || [406, 415].includes(r.status))) t.fail(`${ep}: page ${page} answered ${r.status}`);
      },
    },
    {
      id: `search.text-match.${kind.name}`, title: `${ep}: the text-match media type adds text_matches of the properties the spec lists`, requirement: 'search.text-match-opt-in', needs: { ...kind.needs, vendorMediaType: true },
      async run(t) {
        for (const [n, item] of (await items(t, kind)).items.entries()) {
          if (!Array.isArray(item.text_matches)) {
            t.fail(`${ep}: items[${n}] has no text_matches`, `/items/${n}`);
            continue;
          }
          for (const [m, tm] of (item.text_matches as TextMatch[]).entries()) {
            if (kind.properties && !kind.properties.includes(String(tm.property))) {
              t.fail(`${ep}: text match property ${JSON.stringify(tm.property)}; the spec lists ${kind.properties.join(', ')} for ${kind.name}`, `/items/${n}/text_matches/${m}`);
            }
          }
        }
      },
    },
    {
      id: `search.text-match-indices.${kind.name}`, title: `${ep}: text-match indices select each match's text within fragment`, requirement: 'search.text-match-indices', needs: { ...kind.needs, vendorMediaType: true },
      async run(t) {
        judgeIndices(t, ep, (await items(t, kind)).items);
      },
    },
    {
      id: `search.text-match-fields.${kind.name}`, title: `${ep}: text matches name a URL, a type, a string property and a fragment of its value`, requirement: 'search.text-match-fields', needs: { ...kind.needs, vendorMediaType: true },
      async run(t) {
        judgeTextMatchFields(t, ep, (await items(t, kind)).items, kind.holder);
      },
    },
    {
      id: `search.q-required.${kind.name}`, title: `${ep}: a search without q is refused`, requirement: 'search.q-required', needs: { ...kind.needs, tokens: [SEARCH_CALLER] },
      async run(t) {
        const control = await callerControl(t, kind);
        const url = new URL(control.path, 'http://x');
        url.searchParams.delete('q');
        // Where document 1 lists 422 for the endpoint, the refusal is that "search-specific 422 case"; elsewhere any refusal.
        const stated = endpointById(`search.${kind.name}`).statuses?.includes(422);
        const what = `${ep} without q`;
        const r = await expectRefusal(t, { probe: { ...control, path: `${url.pathname}${url.search}`, reuse: false }, control, ...(stated ? { expected: [422] } : {}), what });
        if (stated && r.verdict === 'refused') judgeQuotedMessage(t, what, (r.probe.json as { message?: unknown } | undefined)?.message, VALIDATION_FAILED);
      },
    },
  ];
}

/** The search of the endpoint's own request (suites/requests.ts) as the search caller: the control of the checks that vary it. */
async function callerControl(t: CheckContext, kind: Kind): Promise<RequestOptions> {
  return { path: await REQUESTS[`search.${kind.name}`]!.path(t), as: SEARCH_CALLER, reuse: true };
}

/** "`indices` is a pair of offsets relative to `fragment`": each pair selects its match's text there. */
export function judgeIndices(t: CheckContext, ep: string, found: readonly Item[]): void {
  let judged = 0;
  for (const [n, item] of found.entries()) {
    if (!Array.isArray(item.text_matches)) continue;
    for (const [m, tm] of (item.text_matches as TextMatch[]).entries()) {
      for (const x of Array.isArray(tm.matches) ? tm.matches : []) {
        judged += 1;
        const [a, b] = Array.isArray(x.indices) ? (x.indices as number[]) : [];
        const fragment = typeof tm.fragment === 'string' ? tm.fragment : '';
        if (!(a! >= 0 && b! <= fragment.length && fragment.slice(a, b).toLowerCase() === String(x.text).toLowerCase())) {
          t.fail(`${ep}: indices ${JSON.stringify(x.indices)} select ${JSON.stringify(fragment.slice(a, b))} in the fragment, not ${JSON.stringify(x.text)}`, `/items/${n}/text_matches/${m}`);
        }
      }
    }
  }
  if (!judged) t.inconclusive(`${ep}: no item of ${found.length} carries a text match with matches: no indices to judge`);
}

/**
 * The text match table: object_url "URL of the resource holding a string property that matched",
 * object_type its "type name", property "name of the matched string property of that resource",
 * fragment a "substring of the property value containing the match". Where the match is of the item
 * itself (object_url is the item's url), the property's value is at hand: it must be a string, and
 * the fragment a substring of it.
 */
export function judgeTextMatchFields(t: CheckContext, ep: string, found: readonly Item[], holder?: (item: Item) => unknown): void {
  let judged = 0;
  for (const [n, item] of found.entries()) {
    if (!Array.isArray(item.text_matches)) continue;
    for (const [m, tm] of (item.text_matches as TextMatch[]).entries()) {
      const where = `/items/${n}/text_matches/${m}`;
      judged += 1;
      // Requiredness is not shown: only the fields given are judged.
      if (tm.object_url !== undefined && !(typeof tm.object_url === 'string' && isUrl(tm.object_url))) t.fail(`${ep}: object_url ${JSON.stringify(tm.object_url)} is not a URL`, `${where}/object_url`);
      if (tm.object_type !== undefined && typeof tm.object_type !== 'string') t.fail(`${ep}: object_type ${JSON.stringify(tm.object_type)} is not a type name string`, `${where}/object_type`);
      if (tm.property !== undefined && typeof tm.property !== 'string') t.fail(`${ep}: property ${JSON.stringify(tm.property)} is not a property name string`, `${where}/property`);
      if (tm.fragment !== undefined && typeof tm.fragment !== 'string') t.fail(`${ep}: fragment ${JSON.stringify(tm.fragment)} is not a string`, `${where}/fragment`);
      const fragment = typeof tm.fragment === 'string' ? tm.fragment : undefined;
      for (const x of Array.isArray(tm.matches) ? tm.matches : []) {
        if (fragment !== undefined && typeof x.text === 'string' && !fragment.toLowerCase().includes(x.text.toLowerCase())) {
          t.fail(`${ep}: fragment ${JSON.stringify(fragment)} does not contain the match ${JSON.stringify(x.text)}`, `${where}/fragment`);
        }
      }
      if (typeof tm.property !== 'string' || tm.object_url === undefined || tm.object_url !== item.url) continue;
      const resource = (holder?.(item) ?? item) as Record<string, unknown> | undefined;
      const value = resource?.[tm.property];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') t.fail(`${ep}: property ${JSON.stringify(tm.property)} of the item it names is ${JSON.stringify(value)}, not a string`, `${where}/property`);
      else if (fragment !== undefined && !value.includes(fragment)) t.fail(`${ep}: fragment ${JSON.stringify(fragment)} is not a substring of the item's ${tm.property} ${JSON.stringify(t.client.excerpt(value, 120))}`, `${where}/fragment`);
    }
  }
  if (!judged) t.inconclusive(`${ep}: no item of ${found.length} carries a text match to judge`);
}

function isUrl(s: string): boolean {
  try {
    return /^https?:$/.test(new URL(s).protocol);
  } catch {
    return false;
  }
}

/** "Search-specific 422 cases (message 'Validation failed')". */
function expect422(t: CheckContext, r: Reply, what: string): void {
  if (!t.expectStatus(r, [422], what)) return;
  judgeQuotedMessage(t, what, (r.json as { message?: unknown } | undefined)?.message, VALIDATION_FAILED);
}

const code = KINDS[0]!;
/** A refusal counts only when the same endpoint answers the plain keyword search. */
async function codeControl(t: CheckContext): Promise<void> {
  const r = await kindSearch(t, code);
  if (r.status !== 200) t.skip('inconclusive', `the control, anonymous GET /search/code for "${keyword(t)}", answered ${r.status}`);
}

const CODE_LIMITS: CheckSpec[] = [
  {
    id: 'search.q-length-256.code', title: 'Code search: q over 256 characters of keywords is refused', requirement: 'search.q-length-256', needs: {},
    async run(t) {
      await codeControl(t);
      const max = LIMITS.search.maxQueryLength;
      expect422(t, await t.request({ path: `/search/code?q=${enc(`${keyword(t)} ${'a'.repeat(max)}`)}`, as: null }), `code search with ${max + keyword(t).length + 1} keyword characters`);
    },
  },
  {
    id: 'search.max-operators.code', title: 'Code search: more than five AND/OR/NOT operators are refused', requirement: 'search.max-operators', needs: {},
    async run(t) {
      await codeControl(t);
      expect422(t, await t.request({ path: `/search/code?q=${enc(`${keyword(t)} OR a AND b NOT c OR d AND e OR f`)}`, as: null }), 'code search with six operators');
    },
  },
];

const kind = (name: Kind['name']) => KINDS.find((k) => k.name === name)!;
const repoOf = (item: Item) => String(item.repository?.full_name ?? item.full_name ?? '');

/** The search caller's 422 rules on the endpoints their checks elsewhere leave out: the control is the endpoint's own search. */
const CALLER_LIMITS: CheckSpec[] = [
  {
    id: 'search.q-length-256.labels', title: 'Label search: q over 256 characters of keywords is refused', requirement: 'search.q-length-256',
    needs: { tokens: [SEARCH_CALLER], resources: ['label_repository_id'] },
    async run(t) {
      const control = await callerControl(t, kind('labels'));
      const max = LIMITS.search.maxQueryLength;
      const q = `${keyword(t)} ${'a'.repeat(max)}`;
      const what = `label search with ${q.length} keyword characters`;
      const r = await expectRefusal(t, { probe: { ...control, path: `/search/labels?repository_id=${t.resources.label_repository_id}&q=${enc(q)}`, reuse: false }, control, expected: [422], what });
      if (r.verdict === 'refused') judgeQuotedMessage(t, what, (r.probe.json as { message?: unknown } | undefined)?.message, VALIDATION_FAILED);
    },
  },
  {
    id: 'search.inaccessible-resources-422.code', title: 'Code search: repo: naming a repository the caller cannot access is refused', requirement: 'search.inaccessible-resources-422',
    needs: { tokens: ['classic', SEARCH_CALLER], resources: ['private_repo'] },
    async run(t) {
      // The control is the same search by the token that can access the repository.
      const path = `/search/code?q=${enc(`${keyword(t)} repo:${t.resources.private_repo}`)}`;
      const what = `code search for repo:${t.resources.private_repo} as the ${SEARCH_CALLER} token`;
      const r = await expectRefusal(t, { probe: { path, as: SEARCH_CALLER }, control: { path, reuse: true }, expected: [422], what });
      if (r.verdict === 'refused') judgeQuotedMessage(t, what, (r.probe.json as { message?: unknown } | undefined)?.message, VALIDATION_FAILED);
    },
  },
  ...(['code', 'commits', 'repositories'] as const).map((name): CheckSpec => ({
    id: `search.partial-access-filtered.${name}`, title: `GET /search/${name}: when only some named repositories are accessible, their results come back and no error`,
    requirement: 'search.partial-access-filtered', needs: { tokens: [SEARCH_CALLER], resources: ['public_repo', 'private_repo'] },
    async run(t) {
      const { public_repo: pub, private_repo: priv } = t.resources;
      const q = `${keyword(t)} repo:${pub} repo:${priv}`;
      const r = await t.request({ path: `/search/${name}?q=${enc(q)}&per_page=100`, as: SEARCH_CALLER });
      if (!t.expectStatus(r, [200], `GET /search/${name} for "${q}" as the ${SEARCH_CALLER} token, which cannot access ${priv}`)) return;
      const found = t.body<Envelope>(r)?.items ?? [];
      const leaked = found.filter((i) => repoOf(i) === priv);
      if (leaked.length) t.fail(`GET /search/${name}: ${leaked.length} results of ${priv} were returned to a token that cannot access it`);
      else if (!found.some((i) => repoOf(i) === pub)) t.inconclusive(`GET /search/${name}: no result of ${pub} came back for "${keyword(t)}": nothing to tell a filtered answer from an empty one`);
    },
  })),
];

/**
 * "When a request spans several organizations, results of organizations needing authorization are
 * omitted and X-Service-SSO reads `partial-results; organizations=<id>,<id>`": the shared anonymous
 * search of each kind spans every organization's public repositories and is the control (it shows the
 * organization has results); the same search by the token never authorized for it must omit them.
 */
const SSO_PARTIAL: CheckSpec[] = (['code', 'commits', 'repositories'] as const).map((name): CheckSpec => ({
  id: `auth.sso-partial-results.${name}`, title: `GET /search/${name}: a search spanning an SSO organization omits its results and says partial-results`,
  requirement: 'auth.sso-partial-results', needs: { tokens: ['sso_unauthorized'], resources: ['sso_org'] },
  async run(t) {
    const org = t.resources.sso_org!;
    const ep = `GET /search/${name}`;
    const ofOrg = (i: Item) => repoOf(i).startsWith(`${org}/`);
    const control = await kindSearch(t, kind(name));
    if (control.status !== 200) return t.skip('inconclusive', `the control, anonymous ${ep} for "${keyword(t)}", answered ${control.status}`);
    if (!((control.json as Envelope | undefined)?.items ?? []).some(ofOrg)) return t.skip('inconclusive', `anonymous ${ep} for "${keyword(t)}" finds nothing of ${org}: no result to see omitted`);
    const r = await t.request({ path: kindPath(t, kind(name)), as: 'sso_unauthorized', headers: { accept: t.names.textMatchMediaType } });
    if (!t.expectStatus(r, [200], `${ep} as the SSO-unauthorized token`)) return;
    const included = (t.body<Envelope>(r)?.items ?? []).filter(ofOrg);
    if (included.length) t.fail(`${ep}: ${included.length} results of ${org} are included for a token not authorized for it`);
    const header = r.headers[t.names.ssoHeader.toLowerCase()] ?? '';
    if (!/^partial-results; organizations=\d+(,\d+)*$/.test(header)) t.fail(`${ep}: ${t.names.ssoHeader} is "${header}", not "partial-results; organizations=<id>,<id>"`);
  },
}));

/**
 * "repo:, user: or org: qualifiers naming resources the caller cannot access": an account that does
 * not exist cannot be accessed. The control names existing ones in the same query shape.
 */
const UNKNOWN_ACCOUNT: CheckSpec = {
  id: 'search.unknown-account-422', title: 'user: and org: naming an account that does not exist are refused', requirement: 'search.inaccessible-resources-422',
  needs: { tokens: ['classic'], resources: ['org'] },
  async run(t) {
    const user = t.profile.tokens?.classic?.login;
    if (!user) return t.skip('missing-resource', "the profile does not name the classic token's login (tokens.classic.login)");
    const issues = (q: string) => t.request({ path: `/search/issues?q=${enc(q)}&per_page=1`, as: null });
    const control = await anonymousIssueSearch(t);
    if (control.status !== 200) return t.skip('inconclusive', `the control, user:${user} org:${t.resources.org}, answered ${control.status}`);
    // A login no account can hold (logins never contain two hyphens in a row); fixed, so recordings replay.
    const nobody = 'no--such-account';
    for (const qualifier of ['user', 'org']) {
      expect422(t, await issues(`${keyword(t)} ${qualifier}:${nobody}`), `${qualifier}:${nobody}`);
    }
  },
};

/**
 * An anonymous issue search naming the classic token's login and the organization where the profile
 * names them (the unknown-account check's control, in its query shape), else the keyword alone.
 */
function anonymousIssueSearch(t: CheckContext): Promise<Reply> {
  const user = t.profile.tokens?.classic?.login;
  const q = user && t.resources.org ? `${keyword(t)} user:${user} org:${t.resources.org}` : keyword(t);
  return t.request({ path: `/search/issues?q=${enc(q)}&per_page=1`, as: null, reuse: true });
}

/** "Anonymous requests work for public data": the shared anonymous searches were answered, not refused for want of a token. */
const ANONYMOUS: CheckSpec = {
  id: 'search.anonymous-public-data', title: 'Search answers anonymous callers', requirement: 'auth.anonymous-public-data', needs: {},
  async run(t) {
    let answered = 0;
    const searches: [string, () => Promise<Reply>][] = [
      ...KINDS.filter((k) => (k.needs.resources ?? []).every((r) => t.resources[r] !== undefined)).map((k): [string, () => Promise<Reply>] => [k.name, () => kindSearch(t, k)]),
      // Issue search's anonymous answer is the unknown-account check's control, reused.
      ['issues', () => anonymousIssueSearch(t)],
    ];
    for (const [name, send] of searches) {
      const r = await send();
      // A 403 may be the spent anonymous window; only "Requires authentication" refuses the caller as such.
      if (r.status === 401) t.fail(`anonymous GET /search/${name} answered 401`);
      else if (r.status === 200) answered += 1;
      else t.info(`anonymous GET /search/${name} answered ${r.status}`);
    }
    if (!answered && !t.failures.length) t.skip('inconclusive', 'no anonymous search was answered');
  },
};

export const endpointChecks = (): CheckSpec[] => [...KINDS.flatMap(perKind), ...CODE_LIMITS, ...CALLER_LIMITS, ...SSO_PARTIAL, UNKNOWN_ACCOUNT, ANONYMOUS];
