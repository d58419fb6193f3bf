/**
 * Search rules checked on every endpoint they govern, not on issue search alone. These checks
 * search anonymously ("Anonymous requests work for public data"): the unauthenticated window of
 * ten a minute is separate from the authenticated one the rest of the run spends.
 */
import { LIMITS } from '../spec/limits.js';
import { VALIDATION_FAILED } from '../spec/vocabulary.js';
import { judgeQuotedMessage } from '../src/wording.js';
import type { Reply } from '../src/client.js';
import type { CheckContext, CheckSpec } from '../src/suite.js';

interface TextMatch { property?: unknown; fragment?: unknown; matches?: { text?: unknown; indices?: unknown }[] }
interface Item { score?: unknown; text_matches?: unknown }
interface Envelope { total_count?: unknown; items?: Item[] }

const enc = encodeURIComponent;
const keyword = (t: CheckContext) => t.resources.search_keyword ?? 'test';

interface Kind {
  name: 'code' | 'commits' | 'labels' | 'repositories';
  needs: NonNullable<CheckSpec['needs']>;
  extra(t: CheckContext): string;
  /** "Code search supplies matches for file content and file path; commits for `message`; …": property names, where the spec gives them. */
  properties?: readonly string[];
}

const KINDS: Kind[] = [
  { name: 'code', needs: {}, extra: () => '' },
  { name: 'commits', needs: {}, extra: () => '', properties: ['message'] },
  { name: 'labels', needs: { resources: ['label_repository_id'] }, extra: (t) => `&repository_id=${t.resources.label_repository_id}`, properties: ['name', 'description'] },
  { name: 'repositories', needs: {}, extra: () => '', properties: ['name', 'description'] },
];

/**
 * One anonymous search per kind, shared by the checks of that kind: the keyword, per_page=101 (the
 * cap shows when more than 100 match) and the text-match media type. The client's `reuse` answers
 * the later checks from the first one's reply and lists that exchange in each check's transcript.
 */
function kindSearch(t: CheckContext, kind: Kind): Promise<Reply> {
  const path = `/search/${kind.name}?q=${enc(keyword(t))}&per_page=${LIMITS.search.maxPerPage + 1}${kind.extra(t)}`;
  return t.request({ path, as: null, headers: { accept: t.names.textMatchMediaType }, reuse: true });
}

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
      id: `search.text-match.${kind.name}`, title: `${ep}: the text-match media type adds text_matches of the properties the spec lists`, requirement: 'search.text-match-opt-in', needs: { ...kind.needs, vendorMediaType: true },
      async run(t) {
        for (const [n, item] of (await items(t, kind)).items.entries()) {
          if (!Array.isArray(item.text_matches)) {
            t.fail(`${ep}: items[${n}] has no text_matches`, `/items/${n}`);
            continue;
          }
          for (const [m, tm] of (item.text_matches as TextMatch[]).entries()) {
            const where = `/items/${n}/text_matches/${m}`;
            if (kind.properties && !kind.properties.includes(String(tm.property))) {
              t.fail(`${ep}: text match property ${JSON.stringify(tm.property)}; the spec lists ${kind.properties.join(', ')} for ${kind.name}`, where);
            }
            for (const x of tm.matches ?? []) {
              const [a, b] = Array.isArray(x.indices) ? (x.indices as number[]) : [];
              const fragment = typeof tm.fragment === 'string' ? tm.fragment : '';
              if (!(a! >= 0 && b! <= fragment.length && fragment.slice(a, b).toLowerCase() === String(x.text).toLowerCase())) {
                t.fail(`${ep}: indices ${JSON.stringify(x.indices)} select ${JSON.stringify(fragment.slice(a, b))} in the fragment, not ${JSON.stringify(x.text)}`, where);
              }
            }
          }
        }
      },
    },
  ];
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
    const control = await issues(`${keyword(t)} user:${user} org:${t.resources.org}`);
    if (control.status !== 200) return t.skip('inconclusive', `the control, user:${user} org:${t.resources.org}, answered ${control.status}`);
    // A login no account can hold (logins never contain two hyphens in a row); fixed, so recordings replay.
    const nobody = 'no--such-account';
    for (const qualifier of ['user', 'org']) {
      expect422(t, await issues(`${keyword(t)} ${qualifier}:${nobody}`), `${qualifier}:${nobody}`);
    }
  },
};

/** "Anonymous requests work for public data": the shared anonymous searches were answered, not refused for want of a token. */
const ANONYMOUS: CheckSpec = {
  id: 'search.anonymous-public-data', title: 'Search answers anonymous callers', requirement: 'auth.anonymous-public-data', needs: {},
  async run(t) {
    let answered = 0;
    for (const kind of KINDS.filter((k) => (k.needs.resources ?? []).every((r) => t.resources[r] !== undefined))) {
      const r = await kindSearch(t, kind);
      // A 403 may be the spent anonymous window; only "Requires authentication" refuses the caller as such.
      if (r.status === 401) t.fail(`anonymous GET /search/${kind.name} answered 401`);
      else if (r.status === 200) answered += 1;
      else t.info(`anonymous GET /search/${kind.name} answered ${r.status}`);
    }
    if (!answered && !t.failures.length) t.skip('inconclusive', 'no anonymous search was answered');
  },
};

export const endpointChecks = (): CheckSpec[] => [...KINDS.flatMap(perKind), ...CODE_LIMITS, UNKNOWN_ACCOUNT, ANONYMOUS];
