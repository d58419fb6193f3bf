/** Search: the 422 rules, access filtering, page caps, the 1,000-result cap, ordering and text matches. */
import { LIMITS } from '../spec/limits.js';
import { VALIDATION_FAILED } from '../spec/vocabulary.js';
import type { Reply, RequestOptions } from '../core/client.js';
import { expectRefusal } from '../core/refusal.js';
import type { CheckContext, CheckSpec, Suite } from '../core/suite.js';
import { judgeQuotedMessage } from '../core/wording.js';
import { spareSearchCaller } from './requests.js';
import { endpointChecks, judgeTextMatchFields } from './search-endpoints.js';

interface Envelope { total_count: number; items: Record<string, unknown>[] }
const enc = encodeURIComponent;
const keyword = (t: CheckContext) => t.resources.search_keyword ?? 'test';
/** A repository_id no repository is expected to have: the largest 32-bit integer. */
const NO_SUCH_REPOSITORY_ID = 2_147_483_647;
/** A search request; `reuse`: a search this run already had answered is not spent again (controls). */
const searchRequest = (kind: string, q: string, extra = '', as?: RequestOptions['as']): RequestOptions =>
  ({ path: `/search/${kind}?q=${enc(q)}${extra}`, ...(as !== undefined ? { as } : {}), reuse: true });
const search = (t: CheckContext, kind: string, q: string, extra = '', as?: RequestOptions['as']) => t.request(searchRequest(kind, q, extra, as));
/** Issue search on the text-match media type, shared by the text-match checks. */
const textMatchIssues = (t: CheckContext): RequestOptions =>
  ({ path: `/search/issues?q=${enc(keyword(t))}&per_page=5`, headers: { accept: t.names.textMatchMediaType }, reuse: true });

/**
 * "Search-specific 422 cases (message 'Validation failed')": the probe must answer 422 while the
 * control, the same search without what makes it invalid, succeeds.
 */
async function expect422(t: CheckContext, probe: RequestOptions, control: RequestOptions | Reply, what: string, message = true): Promise<void> {
  const r = await expectRefusal(t, { probe: { ...probe, reuse: false }, control, expected: [422], what });
  if (!message || r.verdict !== 'refused') return;
  judgeQuotedMessage(t, what, (r.probe.json as { message?: unknown } | undefined)?.message, VALIDATION_FAILED);
}

/** The profile names a keyword that exists only where the spec says search does not look. */
async function expectNothingFound(t: CheckContext, kind: string, q: string, what: string): Promise<void> {
  const r = await search(t, kind, q);
  if (!t.expectStatus(r, [200], `${kind} search for ${what}`)) return;
  const found = t.body<Envelope>(r)?.items ?? [];
  if (found.length) {
    const where = found.slice(0, 3).map((i) => String(i.path ?? i.sha ?? i.url)).join(', ');
    return t.fail(`${kind} search for "${q}" (${what}) found ${found.length}: ${where}`);
  }
  // Nothing found means something only if the same kind of search finds the profile's keyword (the schema suite's search, reused).
  const repo = t.resources.public_repo;
  const known = kind === 'code' && repo ? `${keyword(t)} repo:${repo}` : keyword(t);
  const control = await search(t, kind, known);
  if (!(t.body<Envelope>(control)?.items?.length)) t.skip('inconclusive', `${kind} search finds nothing for "${known}" either (${control.status}): an empty answer shows nothing`);
}

const repoOf = (item: Record<string, unknown>) => (item.repository as { full_name?: string } | undefined)?.full_name
  ?? String(item.repository_url ?? '').split('/repos/')[1];

function check(id: string, title: string, requirement: string, run: CheckSpec['run'], needs: CheckSpec['needs'] = { tokens: ['classic'] }): CheckSpec {
  return { id, title, requirement, needs, run };
}

export const searchSuite: Suite = {
  name: 'search',
  description: "The search rules of document 1, within one window of each caller's search limit.",
  independent: true,
  checks: () => [
    check('search.q-required', 'A search without q is refused', 'search.q-required', async (t) => {
      await expect422(t, { path: '/search/issues' }, searchRequest('issues', keyword(t)), 'GET /search/issues without q');
    }),
    check('search.q-length-256', 'q over 256 characters of keywords is refused; qualifiers do not count', 'search.q-length-256', async (t) => {
      const max = LIMITS.search.maxQueryLength;
      const repo = t.resources.public_repo!;
      const q = `${'a'.repeat(max - 6)} repo:${repo} repo:${repo} is:issue in:title`;
      // Admitted, it is also the control: the same kind of search, within the limit.
      const within = await search(t, 'issues', q);
      t.expectStatus(within, [200], `${max - 6} keyword characters plus ${q.length - (max - 6)} of qualifiers`);
      await expect422(t, searchRequest('issues', 'a'.repeat(max + 1)), within, `a ${max + 1}-character keyword`);
    }, { tokens: ['classic'], resources: ['public_repo'] }),
    check('search.max-operators', 'More than five AND/OR/NOT operators are refused; five pass', 'search.max-operators', async (t) => {
      const k = keyword(t);
      // Five operators are admitted, and they are the control of six.
      const five = await search(t, 'issues', `${k} OR a AND b NOT c OR d AND e`);
      t.expectStatus(five, [200], 'five operators');
      await expect422(t, searchRequest('issues', `${k} OR a AND b NOT c OR d AND e OR f`), five, 'six operators');
    }),
    check('search.code-requires-term', 'Code search with only a qualifier is refused', 'search.code-requires-term', async (t) => {
      const qualifier = `repo:${t.resources.public_repo}`;
      await expect422(t, searchRequest('code', qualifier), searchRequest('code', `${keyword(t)} ${qualifier}`), 'q with only repo:');
    }, { tokens: ['classic'], resources: ['public_repo'] }),
    check('search.code-default-branch', 'Code search finds nothing that exists only off the default branch', 'search.code-default-branch', async (t) => {
      await expectNothingFound(t, 'code', t.resources.off_default_branch_keyword!, 'a keyword found only on another branch');
    }, { tokens: ['classic'], resources: ['off_default_branch_keyword'] }),
    check('search.code-file-size', 'Code search finds nothing that exists only in a file of 384 KB or more', 'search.code-file-size', async (t) => {
      await expectNothingFound(t, 'code', t.resources.large_file_keyword!, 'a keyword found only in a file of 384 KB or more');
    }, { tokens: ['classic'], resources: ['large_file_keyword'] }),
    check('search.commits-default-branch', 'Commit search finds nothing that exists only off the default branch', 'search.commits-default-branch', async (t) => {
      await expectNothingFound(t, 'commits', t.resources.off_default_branch_keyword!, 'a keyword found only in a commit on another branch');
    }, { tokens: ['classic'], resources: ['off_default_branch_keyword'] }),
    check('search.labels-repository-id', 'Label search without repository_id is refused', 'search.labels-repository-id', async (t) => {
      const control: RequestOptions = { path: `/search/labels?repository_id=${t.resources.label_repository_id}&q=${enc(keyword(t))}`, reuse: true };
      // Not among the search-specific 422 cases of document 1, so its message is not checked here.
      await expect422(t, searchRequest('labels', keyword(t)), control, 'GET /search/labels without repository_id', false);
    }, { tokens: ['classic'], resources: ['label_repository_id'] }),
    check('search.labels-unknown-repository-404', 'Label search for a repository_id naming no repository answers 404', 'errors.not-found', async (t) => {
      const what = `GET /search/labels with repository_id=${NO_SUCH_REPOSITORY_ID}`;
      const probe = await t.request({ path: `/search/labels?repository_id=${NO_SUCH_REPOSITORY_ID}&q=${enc(keyword(t))}` });
      // The id is chosen to name no repository, but a target may have one: a success shows nothing about the 404.
      if (probe.status >= 200 && probe.status < 300) return t.skip('inconclusive', `${what} answered ${probe.status}: a repository may have that id`);
      // The control, the same search in the profile's repository, is the one search.labels-repository-id sent.
      const control: RequestOptions = { path: `/search/labels?repository_id=${t.resources.label_repository_id}&q=${enc(keyword(t))}`, reuse: true };
      await expectRefusal(t, { probe, control, expected: [404], what });
    }, { tokens: ['classic'], resources: ['label_repository_id'] }),
    check('search.inaccessible-resources-422', 'repo: naming something the caller cannot access is refused', 'search.inaccessible-resources-422', async (t) => {
      // The control is the same search by a token that can access the repository.
      const q = `${keyword(t)} repo:${t.resources.private_repo}`;
      await expect422(t, searchRequest('issues', q, '', 'classic_public'), searchRequest('issues', q), `repo:${t.resources.private_repo} with the public-only token`);
    }, { tokens: ['classic', 'classic_public'], resources: ['private_repo'] }),
    check('search.partial-access-filtered', 'When only some named repositories are accessible, their results come back and no error', 'search.partial-access-filtered', async (t) => {
      const { public_repo: pub, private_repo: priv } = t.resources;
      const r = await search(t, 'issues', `${keyword(t)} repo:${pub} repo:${priv}`, '&per_page=100', 'classic_public');
      if (!t.expectStatus(r, [200], `repo:${pub} repo:${priv} with the public-only token`)) return;
      const items = t.body<Envelope>(r)?.items ?? [];
      const leaked = items.filter((i) => repoOf(i) === priv);
      if (leaked.length) t.fail(`${leaked.length} results of ${priv} were returned to a token that cannot access it`);
      else if (!items.some((i) => repoOf(i) === pub)) t.inconclusive(`no result of ${pub} came back for "${keyword(t)}": nothing to tell a filtered answer from an empty one`);
    }, { tokens: ['classic_public'], resources: ['public_repo', 'private_repo'] }),
    check('search.app-user-issue-qualifier', 'Issue search with a user-to-server token needs is:issue or is:pull-request', 'search.app-user-issue-qualifier', async (t) => {
      // With is:issue it is admitted, and it is the control.
      const withIs = await search(t, 'issues', `${keyword(t)} is:issue`, '&per_page=1', 'app_user');
      t.expectStatus(withIs, [200], 'with is:issue');
      await expect422(t, searchRequest('issues', keyword(t), '', 'app_user'), withIs, 'issue search without is: as the app user');
    }, { tokens: ['app_user'] }),
    check('search.per-page-max-100', 'per_page is capped at 100', 'search.per-page-max-100', async (t) => {
      const r = await search(t, 'issues', keyword(t), '&per_page=101');
      if (!t.expectStatus(r, [200, 422], 'per_page=101')) return;
      if (r.status === 422) {
        // A refusal of 101 shows the cap only if 100 is admitted: the control.
        await expectRefusal(t, { probe: r, control: searchRequest('issues', keyword(t), '&per_page=100'), expected: [422], what: 'per_page=101' });
        return;
      }
      const body = t.body<Envelope>(r);
      const items = body?.items ?? [];
      if (items.length > LIMITS.search.maxPerPage) t.fail(`per_page=101 returned ${items.length} items`);
      else if (r.status === 200 && items.length < LIMITS.search.maxPerPage) {
        t.inconclusive(`per_page=101 listed ${items.length} of ${body?.total_count} matches of "${keyword(t)}": more than 100 are needed to see the cap`);
      }
    }),
    check('search.reachable-1000', 'At most 1,000 results are reachable per search', 'search.reachable-1000', async (t) => {
      const per = LIMITS.search.maxPerPage;
      const beyond = LIMITS.search.reachableResults / per + 1;
      const first = t.body<Envelope>(await search(t, 'issues', keyword(t), '&per_page=1', spareSearchCaller(t)));
      if (!first || first.total_count <= LIMITS.search.reachableResults) {
        t.skip('missing-resource', `search_keyword "${keyword(t)}" matches ${first?.total_count ?? 0} issues; more than 1,000 are needed to observe the cap`);
      }
      const r = await search(t, 'issues', keyword(t), `&per_page=${per}&page=${beyond}`, spareSearchCaller(t));
      if (r.status === 200 && (t.body<Envelope>(r)?.items.length ?? 0) > 0) t.fail(`page ${beyond} of ${per} returned results past the first 1,000`);
      else if (r.status !== 200 && r.status !== 422) t.fail(`page ${beyond} answered ${r.status}`);
    }),
    check('search.total-count', 'total_count counts every match, past the 1,000 reachable ones too', 'resource.search-envelope', async (t) => {
      const total = async (q: string) => t.body<Envelope>(await search(t, 'issues', q, '&per_page=1', spareSearchCaller(t)))?.total_count;
      const [all, issues, pulls] = [await total(keyword(t)), await total(`${keyword(t)} is:issue`), await total(`${keyword(t)} is:pull-request`)];
      const counts = [all, issues, pulls];
      // Requiredness is not shown; an answer that is no envelope (a refusal, throttling) has none either.
      if (counts.some((n) => n === undefined)) return t.skip('inconclusive', `total_count absent from ${counts.filter((n) => n === undefined).length} of the three searches: nothing to add up`);
      if (counts.some((n) => !Number.isInteger(n))) return t.fail(`total_count is not an integer: ${counts.map((n) => JSON.stringify(n)).join(', ')}`);
      if (counts.every((n) => n === 0)) return t.skip('inconclusive', `nothing matches "${keyword(t)}": 0 = 0 + 0 shows nothing`);
      // Every issue search result is an issue or a pull request, so the two counts add up to the whole.
      if (all !== issues! + pulls!) t.fail(`total_count is ${all} for "${keyword(t)}" but ${issues} issues + ${pulls} pull requests = ${issues! + pulls!}`);
    }, { anonymous: true }),
    check('search.best-match-descending', 'Default ordering is best match, descending', 'search.best-match-descending', async (t) => {
      const r = await search(t, 'issues', keyword(t), '&per_page=100');
      if (!t.expectStatus(r, [200], `search for "${keyword(t)}"`)) return;
      const items = t.body<Envelope>(r)?.items ?? [];
      if (items.length < 2) return t.skip('inconclusive', `the search for "${keyword(t)}" listed ${items.length} items: no order to judge`);
      // Requiredness of score is not shown: only the scores given are ordered.
      const scores = items.map((i) => i.score).filter((s): s is number => typeof s === 'number');
      if (scores.length < 2) return t.skip('inconclusive', `${scores.length} of ${items.length} items carry a numeric score: no order to judge`);
      const at = scores.findIndex((s, i) => i > 0 && s > scores[i - 1]!);
      if (at > 0) t.fail(`score ${at} of the list is ${scores[at]}, after ${scores[at - 1]}: not descending`);
    }, { anonymous: true }),
    check('search.text-match-indices', 'Text-match metadata arrives on the text-match media type, with indices inside fragment', 'search.text-match-indices', async (t) => {
      const r = await t.request(textMatchIssues(t));
      if (!t.expectStatus(r, [200])) return;
      const items = t.body<Envelope>(r)?.items ?? [];
      if (!items.length) return t.skip('inconclusive', `no issue matches "${keyword(t)}": no text match to judge`);
      let judged = 0;
      for (const [n, item] of items.entries()) {
        const tm = item.text_matches as { fragment: string; matches: { text: string; indices: [number, number] }[] }[] | undefined;
        if (!Array.isArray(tm)) {
          t.fail(`items[${n}] has no text_matches`);
          continue;
        }
        for (const m of tm) for (const x of m.matches ?? []) {
          if (!Array.isArray(x.indices) || typeof m.fragment !== 'string') continue;
          judged += 1;
          const [a, b] = x.indices;
          if (!(a >= 0 && b <= m.fragment.length && m.fragment.slice(a, b).toLowerCase() === x.text.toLowerCase())) {
            t.fail(`items[${n}]: indices [${a}, ${b}] select ${JSON.stringify(m.fragment.slice(a, b))} in the fragment, not ${JSON.stringify(x.text)}`);
          }
        }
      }
      if (!judged) t.inconclusive(`no match of ${items.length} items gives indices within a fragment: nothing to judge`);
    }, { tokens: ['classic'], vendorMediaType: true }),
    check('search.text-match-fields', 'Issue search text matches name a URL, a type, a string property and a fragment of its value', 'search.text-match-fields', async (t) => {
      // The text-match-indices check's search, reused.
      const r = await t.request(textMatchIssues(t));
      if (!t.expectStatus(r, [200])) return;
      const items = t.body<Envelope>(r)?.items ?? [];
      if (!items.length) return t.skip('inconclusive', `no issue matches "${keyword(t)}": no text match to judge`);
      judgeTextMatchFields(t, 'GET /search/issues', items);
    }, { tokens: ['classic'], vendorMediaType: true }),
    ...endpointChecks(),
  ],
};
