/** Document 1, search, exercised over HTTP: query language, 422 cases, scoping, ordering, paging, text matches, faults. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../spec/limits.js';
import { VALIDATION_FAILED } from '../../spec/vocabulary.js';
import { searchArea } from '../../reference/areas/search.js';
import { ORGS, REPOS } from '../../reference/world.js';
import { TOKENS, useReference, type CallOptions, type ReferenceHandle, type Reply } from '../helpers/reference.js';

const QUOTAS = { search: { authenticated: { limit: 100_000 }, anonymous: { limit: 100_000 } } };
const TEXT_MATCH = { accept: 'application/vnd.service.text-match+json' };
const REPO_ID = (full: string) => REPOS.find((r) => `${r.owner}/${r.name}` === full)!.id;
const ORG_ID = (login: string) => ORGS.find((o) => o.login === login)!.id;

type Get = (path: string, opts?: CallOptions) => Promise<Reply>;
const search = (get: Get, kind: string, q: string | null, query = '', opts?: CallOptions) =>
  get(`/search/${kind}?${q === null ? '' : `q=${encodeURIComponent(q)}`}${query}`, opts);
const total = async (get: Get, kind: string, q: string, extra = '') => {
  const r = await search(get, kind, q, `${extra}&per_page=1`);
  expect(r.status, `${kind} ${q}`).toBe(200);
  return r.body.total_count as number;
};
/** Scores of the first and the last reachable page of 100 (the top page alone may hold one score only). */
async function bestMatchScores(get: Get, kind: string, q: string, extra: string): Promise<number[]> {
  const last = LIMITS.search.reachableResults / LIMITS.search.maxPerPage;
  const pages = await Promise.all([1, last].map((p) => search(get, kind, q, `${extra}&per_page=100&page=${p}`)));
  return pages.flatMap((r) => r.body.items.map((i: any) => i.score as number));
}
/** The search's ETag sent back in If-None-Match answers 304. */
const notModified = async (get: Get, path: string) => {
  const etag = (await get(path)).headers.etag!;
  expect((await get(path, { headers: { 'if-none-match': etag } })).status).toBe(304);
};
const expect422 = (r: Reply) => {
  expect(r.status).toBe(422);
  expect(r.body.message).toBe(VALIDATION_FAILED);
  expect(Array.isArray(r.body.errors)).toBe(true);
};
/** Scores in best-match order, and at least two of them, so the order shows. */
const descending = (r: Reply) => {
  const scores = r.body.items.map((i: any) => i.score as number);
  expect(scores.every((x: number, i: number) => i === 0 || scores[i - 1]! >= x)).toBe(true);
  expect(scores[0]).toBeGreaterThan(scores.at(-1)!);
};
/** Every item carries text matches, each naming one of the properties the spec lists for its kind. */
const matched = (r: Reply, properties: string[]) => {
  expect(r.body.items.length).toBeGreaterThan(0);
  for (const item of r.body.items) {
    expect(item.text_matches?.length).toBeGreaterThan(0);
    for (const tm of item.text_matches) expect(properties).toContain(tm.property);
  }
};
const fullNames = (r: Reply, pick: (item: any) => string) => new Set<string>(r.body.items.map(pick));
const issueRepo = (item: any) => (item.repository_url as string).split('/repos/')[1]!;

describe('search envelope, records and paging', () => {
  const ref = useReference({ quotas: QUOTAS });

  it('counts every match, reports incomplete_results as a boolean and pages 30 by default', async () => {
    const r = await search(ref.get, 'issues', 'widget');
    expect(r.status).toBe(200);
    expect(r.body.total_count).toBeGreaterThan(LIMITS.search.reachableResults);
    expect(r.body.incomplete_results).toBe(false);
    expect(r.body.items).toHaveLength(30);
    expect(r.headers.link).toContain('rel="next"');
  });

  it('clamps per_page to 100 and stops the Link header at the 1,000th result', async () => {
    const r = await search(ref.get, 'issues', 'widget', '&per_page=150');
    expect(r.body.items).toHaveLength(LIMITS.search.maxPerPage);
    const last = /[?&]page=(\d+)[^>]*>; rel="last"/.exec(r.headers.link ?? '');
    expect(Number(last?.[1])).toBe(LIMITS.search.reachableResults / LIMITS.search.maxPerPage);
  });

  it('serves the page ending at the 1,000th result and refuses the one after with a 422 message', async () => {
    const lastPage = LIMITS.search.reachableResults / LIMITS.search.maxPerPage;
    const ok = await search(ref.get, 'issues', 'widget', `&per_page=100&page=${lastPage}`);
    expect(ok.status).toBe(200);
    expect(ok.body.items).toHaveLength(LIMITS.search.maxPerPage);
    expect(ok.headers.link).not.toContain('rel="next"');
    const beyond = await search(ref.get, 'issues', 'widget', `&per_page=100&page=${lastPage + 1}`);
    expect(beyond.status).toBe(422);
    expect(beyond.body.message).toMatch(/1000/);
  });

  it('renders issue and pull request items with the listed fields', async () => {
    const r = await search(ref.get, 'issues', 'widget', '&per_page=10');
    for (const item of r.body.items) {
      for (const f of ['url', 'repository_url', 'labels_url', 'comments_url', 'events_url', 'html_url', 'node_id', 'title', 'state', 'created_at', 'updated_at', 'body', 'author_association', 'state_reason']) {
        expect(typeof item[f], f).toBe('string');
      }
      for (const f of ['id', 'number', 'comments', 'score']) expect(typeof item[f], f).toBe('number');
      expect(typeof item.locked).toBe('boolean');
      expect(item.user.login).toBeTypeOf('string');
      expect(item.milestone.creator.login).toBeTypeOf('string');
      for (const l of item.labels) expect(Object.keys(l).sort()).toEqual(['color', 'id', 'name', 'node_id', 'url']);
      expect(item.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    const prs = await search(ref.get, 'issues', 'widget is:pr');
    expect(prs.body.total_count).toBeGreaterThan(0);
    for (const item of prs.body.items) expect(Object.keys(item.pull_request).sort()).toEqual(['diff_url', 'html_url', 'patch_url', 'url']);
    const issues = await search(ref.get, 'issues', 'widget is:issue');
    for (const item of issues.body.items) expect(item.pull_request).toBeUndefined();
    expect(issues.body.total_count + prs.body.total_count).toBe(await total(ref.get, 'issues', 'widget'));
  });

  it('renders code, commit, label and repository items', async () => {
    const code = await search(ref.get, 'code', 'widget');
    for (const item of code.body.items) {
      for (const f of ['name', 'path', 'sha', 'url', 'git_url', 'html_url']) expect(typeof item[f], f).toBe('string');
      expect(item.repository.full_name).toBeTypeOf('string');
      expect(item.score).toBeTypeOf('number');
    }
    const commits = await search(ref.get, 'commits', 'widget', '&per_page=100');
    for (const item of commits.body.items) {
      expect(item.commit.tree.sha).toBeTypeOf('string');
      expect(item.commit.comment_count).toBeTypeOf('number');
      expect(item.author.login).toBeTypeOf('string');
      expect(item.committer).toBeTypeOf('object');
      expect(Array.isArray(item.parents)).toBe(true);
      expect(item.repository.full_name).toBeTypeOf('string');
    }
    expect(commits.body.items.some((i: any) => Object.keys(i.committer).length === 0)).toBe(true);
    const labels = await search(ref.get, 'labels', 'bug', `&repository_id=${REPO_ID('acme/widgets')}`);
    expect(labels.body.items[0]).toMatchObject({ name: 'bug', default: true });
    expect(Object.keys(labels.body.items[0]).sort()).toEqual(['color', 'default', 'description', 'id', 'name', 'node_id', 'score', 'url']);
    const repos = await search(ref.get, 'repositories', 'widget');
    expect(repos.body.items.map((i: any) => i.full_name)).toContain('acme/widgets');
    for (const item of repos.body.items) expect(item.score).toBeTypeOf('number');
  });
});

describe('search-only repositories', () => {
  const ref = useReference({ quotas: QUOTAS });
  const lastPage = LIMITS.search.reachableResults / LIMITS.search.maxPerPage;
  const SEARCH_ONLY = 'linus/widget-kit-1';

  it('match the keyword past the 1,000 reachable results: pages of 100 up to the 1,000th, then a 422', async () => {
    const first = await search(ref.get, 'repositories', 'widget', `&per_page=${LIMITS.search.maxPerPage + 1}`, { token: null });
    expect(first.body.total_count).toBeGreaterThan(LIMITS.search.reachableResults);
    expect(first.body.items).toHaveLength(LIMITS.search.maxPerPage);
    expect((await search(ref.get, 'repositories', 'widget', `&per_page=100&page=${lastPage}`)).body.items).toHaveLength(LIMITS.search.maxPerPage);
    expect((await search(ref.get, 'repositories', 'widget', `&per_page=100&page=${lastPage + 1}`)).status).toBe(422);
  });

  it("keep acme/widgets among the first page's best matches, so single sign-on has a result to omit", async () => {
    const r = await search(ref.get, 'repositories', 'widget', '&per_page=100', { token: null });
    expect(fullNames(r, (i) => i.full_name)).toContain('acme/widgets');
  });

  it('are scoped by repo: and user: like any repository', async () => {
    const one = await search(ref.get, 'repositories', `widget repo:${SEARCH_ONLY}`);
    expect([...fullNames(one, (i) => i.full_name)]).toEqual([SEARCH_ONLY]);
    expect(await total(ref.get, 'repositories', 'widget user:linus')).toBeGreaterThan(LIMITS.search.reachableResults);
  });

  it('exist for repository search alone: the world, events and the other searches do not hold them', async () => {
    const world = ref.server.state.world;
    expect(world.liveRepos().some((r) => r.owner === 'linus')).toBe(false);
    expect((await ref.get(`/networks/${SEARCH_ONLY}/events`)).status).toBe(404);
    const events = await ref.get('/events?per_page=100', { token: null });
    expect(events.body.some((e: any) => e.repo.name.startsWith('linus/'))).toBe(false);
    expect(await total(ref.get, 'code', `widget repo:${SEARCH_ONLY}`)).toBe(0);
    expect(await total(ref.get, 'issues', `widget repo:${SEARCH_ONLY}`)).toBe(0);
    const id = (await search(ref.get, 'repositories', `widget repo:${SEARCH_ONLY}`)).body.items[0].id;
    expect((await search(ref.get, 'labels', 'widget', `&repository_id=${id}`)).status).toBe(404);
  });
});

describe('query language', () => {
  const ref = useReference({ quotas: QUOTAS });

  it('ANDs keywords implicitly and honours NOT > AND > OR', async () => {
    const [widget, resize, theme] = (await Promise.all(['widget', 'resize', 'theme'].map((k) => total(ref.get, 'issues', k)))) as [number, number, number];
    expect(await total(ref.get, 'issues', 'widget resize')).toBe(await total(ref.get, 'issues', 'widget AND resize'));
    const both = await total(ref.get, 'issues', 'resize AND theme');
    expect(await total(ref.get, 'issues', 'resize OR theme')).toBe(resize + theme - both);
    expect(await total(ref.get, 'issues', 'widget NOT resize')).toBe(widget - (await total(ref.get, 'issues', 'widget resize')));
    // theme OR (widget AND resize), not (theme OR widget) AND resize.
    const themeOrWidgetResize = await total(ref.get, 'issues', 'theme OR widget AND resize');
    const themeAndWidgetResize = await total(ref.get, 'issues', 'theme widget resize');
    expect(themeOrWidgetResize).toBe(theme + (await total(ref.get, 'issues', 'widget resize')) - themeAndWidgetResize);
    expect(widget).toBeGreaterThan(0);
  });

  it('treats quoted phrases as one keyword, lower-case operators and unknown qualifiers as words', async () => {
    const r = await search(ref.get, 'issues', '"widget toolbar"', '&per_page=100');
    expect(r.body.total_count).toBeGreaterThan(0);
    for (const item of r.body.items) expect(`${item.title} ${item.body}`.toLowerCase()).toContain('widget toolbar');
    // Were `not` the operator, `widget not` would lack an operand; as a word it matches nothing.
    expect(await total(ref.get, 'issues', 'widget not')).toBe(0);
    // A qualifier the endpoint does not know is a keyword, here one that appears nowhere.
    expect(await total(ref.get, 'issues', 'widget nosuch:thing')).toBe(0);
    expect(await total(ref.get, 'labels', 'bug repo:acme/widgets', `&repository_id=${REPO_ID('acme/widgets')}`)).toBe(0);
  });

  it('filters issues by is:, state:, label:, author: and in:', async () => {
    const closed = await search(ref.get, 'issues', 'widget is:closed', '&per_page=50');
    for (const item of closed.body.items) expect(item.state).toBe('closed');
    expect(closed.body.total_count).toBe(await total(ref.get, 'issues', 'widget state:closed'));
    const bug = await search(ref.get, 'issues', 'widget label:bug', '&per_page=50');
    expect(bug.body.total_count).toBeGreaterThan(0);
    for (const item of bug.body.items) expect(item.labels.map((l: any) => l.name)).toContain('bug');
    const mona = await search(ref.get, 'issues', 'widget author:mona', '&per_page=50');
    for (const item of mona.body.items) expect(item.user.login).toBe('mona');
    const titles = await search(ref.get, 'issues', 'broken in:title');
    expect(titles.body.total_count).toBe(0);
    expect(await total(ref.get, 'issues', 'broken in:body')).toBeGreaterThan(0);
  });

  it('scopes by repo:, user: and org:', async () => {
    const gizmo = await search(ref.get, 'issues', 'widget repo:globex/gizmo', '&per_page=100');
    expect(fullNames(gizmo, issueRepo)).toEqual(new Set(['globex/gizmo']));
    const org = await search(ref.get, 'commits', 'widget org:globex', '&per_page=100');
    expect(fullNames(org, (i) => i.repository.full_name)).toEqual(new Set(['globex/gizmo']));
    const user = await search(ref.get, 'code', 'widget user:mona');
    expect(fullNames(user, (i) => i.repository.full_name)).toEqual(new Set(['mona/dotfiles']));
    const inName = await search(ref.get, 'repositories', 'widget in:name');
    for (const item of inName.body.items) expect(item.name.toLowerCase()).toContain('widget');
  });
});

describe('search-specific 422 cases', () => {
  const ref = useReference({ quotas: QUOTAS });

  it('refuses a missing q on every endpoint', async () => {
    for (const kind of ['code', 'commits', 'issues', 'repositories']) expect422(await search(ref.get, kind, null));
    expect422(await search(ref.get, 'labels', null, `&repository_id=${REPO_ID('acme/widgets')}`));
  });

  it('limits q to 256 keyword characters, operators and qualifiers excluded', async () => {
    const max = LIMITS.search.maxQueryLength;
    expect((await search(ref.get, 'issues', 'w'.repeat(max))).status).toBe(200);
    expect422(await search(ref.get, 'issues', 'w'.repeat(max + 1)));
    const longQualifiers = `widget ${Array.from({ length: 12 }, () => 'label:"a-rather-long-label-name-here"').join(' ')}`;
    expect(longQualifiers.length).toBeGreaterThan(max);
    expect((await search(ref.get, 'issues', longQualifiers)).status).toBe(200);
    const words = `${'w'.repeat(max - 2)} OR a`;
    expect((await search(ref.get, 'issues', words)).status).toBe(200);
  });

  it('allows five boolean operators and refuses six', async () => {
    const query = (n: number) => ['widget', ...Array.from({ length: n }, (_, i) => `OR k${i}`)].join(' ');
    expect((await search(ref.get, 'issues', query(LIMITS.search.maxOperators))).status).toBe(200);
    expect422(await search(ref.get, 'issues', query(LIMITS.search.maxOperators + 1)));
  });

  it('refuses an operator without an operand', async () => {
    expect422(await search(ref.get, 'issues', 'widget AND'));
    expect422(await search(ref.get, 'issues', 'OR widget'));
  });

  it('refuses a code search made of qualifiers only', async () => {
    expect422(await search(ref.get, 'code', 'repo:acme/widgets'));
    expect((await search(ref.get, 'code', 'widget repo:acme/widgets')).status).toBe(200);
  });

  it('needs repository_id on label search: 422 when missing, 404 when unknown or unreadable', async () => {
    expect422(await search(ref.get, 'labels', 'bug'));
    expect((await search(ref.get, 'labels', 'bug', '&repository_id=999999')).status).toBe(404);
    expect((await search(ref.get, 'labels', 'bug', `&repository_id=${REPO_ID('acme/secret')}`, { token: null })).status).toBe(404);
    expect((await search(ref.get, 'labels', 'bug', `&repository_id=${REPO_ID('acme/secret')}`)).status).toBe(200);
  });

  it('refuses repo:, user: and org: naming only missing or unreadable resources', async () => {
    expect422(await search(ref.get, 'issues', 'widget repo:acme/secret', '', { token: null }));
    expect422(await search(ref.get, 'issues', 'widget repo:nobody/nothing'));
    expect422(await search(ref.get, 'commits', 'widget user:no-such-user'));
    expect422(await search(ref.get, 'repositories', 'widget org:no-such-org'));
    const readable = await search(ref.get, 'issues', 'widget repo:acme/secret');
    expect(readable.status).toBe(200);
    expect(readable.body.total_count).toBeGreaterThan(0);
  });

  it('silently keeps the accessible resources when only some are', async () => {
    const r = await search(ref.get, 'issues', 'widget repo:acme/secret repo:globex/gizmo', '&per_page=100', { token: null });
    expect(r.status).toBe(200);
    expect(r.body.total_count).toBeGreaterThan(0);
    expect(fullNames(r, issueRepo)).toEqual(new Set(['globex/gizmo']));
  });

  it('requires is:issue or is:pull-request on issue search with an app user token', async () => {
    expect422(await search(ref.get, 'issues', 'widget', '', { token: TOKENS.appUser }));
    expect((await search(ref.get, 'issues', 'widget is:issue', '', { token: TOKENS.appUser })).status).toBe(200);
    expect((await search(ref.get, 'issues', 'widget is:pull-request', '', { token: TOKENS.appUser })).status).toBe(200);
    expect((await search(ref.get, 'issues', 'widget', '', { token: TOKENS.classic })).status).toBe(200);
  });
});

describe('indexing rules', () => {
  const ref = useReference({ quotas: QUOTAS });

  it('searches code and commits of the default branch only, and code files under 384 KB', async () => {
    expect(await total(ref.get, 'code', 'fluxcapacitor')).toBe(0);
    expect(await total(ref.get, 'commits', 'fluxcapacitor')).toBe(0);
    expect(await total(ref.get, 'code', 'hugefixturemarker')).toBe(0);
  });

  it('hides private repositories from callers who cannot read them', async () => {
    const anonymous = await search(ref.get, 'issues', 'secret widget plan', '', { token: null });
    expect(anonymous.body.total_count).toBe(0);
    expect(await total(ref.get, 'issues', 'secret widget plan')).toBeGreaterThan(0);
  });
});

describe('ordering', () => {
  const ref = useReference({ quotas: QUOTAS });
  const nonIncreasing = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! >= x);
  const nonDecreasing = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! <= x);

  it('orders by best match, descending, on every endpoint', async () => {
    const cases: [string, string, string][] = [['issues', 'widget', ''], ['code', 'widget', ''], ['commits', 'widget', ''],
      ['repositories', 'widget', ''], ['labels', 'widget', `&repository_id=${REPO_ID('acme/widgets')}`]];
    for (const [kind, q, extra] of cases) {
      const scores = await bestMatchScores(ref.get, kind, q, extra);
      expect(new Set(scores).size, kind).toBeGreaterThan(1);
      expect(nonIncreasing(scores), kind).toBe(true);
    }
  });

  it('sorts by the documented keys, desc by default, asc on request', async () => {
    const comments = await search(ref.get, 'issues', 'widget', '&sort=comments&per_page=100');
    expect(nonIncreasing(comments.body.items.map((i: any) => i.comments))).toBe(true);
    const asc = await search(ref.get, 'issues', 'widget', '&sort=created&order=asc&per_page=100');
    expect(nonDecreasing(asc.body.items.map((i: any) => Date.parse(i.created_at)))).toBe(true);
    const updated = await search(ref.get, 'issues', 'widget', '&sort=updated&per_page=100');
    expect(nonIncreasing(updated.body.items.map((i: any) => Date.parse(i.updated_at)))).toBe(true);
    const commits = await search(ref.get, 'commits', 'widget', '&sort=author-date&order=asc&per_page=100');
    expect(nonDecreasing(commits.body.items.map((i: any) => Date.parse(i.commit.author.date)))).toBe(true);
    const stars = await search(ref.get, 'repositories', 'a', '&sort=stars&per_page=100');
    expect(nonIncreasing(stars.body.items.map((i: any) => i.stargazers_count))).toBe(true);
    const unknown = await search(ref.get, 'issues', 'widget', '&sort=bogus&per_page=100');
    expect(nonIncreasing(unknown.body.items.map((i: any) => i.score))).toBe(true);
  });
});

describe('text-match metadata', () => {
  const ref = useReference({ quotas: QUOTAS });
  const cases: [string, string, string, string[]][] = [
    ['code', 'widget', '', ['content', 'path']],
    ['commits', 'widget', '', ['message']],
    ['issues', 'widget', '', ['body', 'title']],
    ['labels', 'widget', `&repository_id=${REPO_ID('acme/widgets')}`, ['description', 'name']],
    ['repositories', 'widget', '', ['description', 'name']],
  ];

  it('reports matches in comment bodies as the comment\'s body', async () => {
    const r = await search(ref.get, 'issues', 'regression', '&per_page=100', { headers: TEXT_MATCH });
    const inComments = r.body.items.flatMap((i: any) => i.text_matches).filter((tm: any) => tm.object_type === 'IssueComment');
    expect(inComments.length).toBeGreaterThan(0);
    for (const tm of inComments) {
      expect(tm.property).toBe('body');
      expect(tm.object_url).toMatch(/\/issues\/comments\/\d+$/);
      expect(tm.fragment.toLowerCase()).toContain('regression');
    }
  });

  it('adds text_matches whose indices locate the keyword inside the fragment', async () => {
    for (const [kind, q, extra, properties] of cases) {
      const r = await search(ref.get, kind, q, extra, { headers: TEXT_MATCH });
      expect(r.headers['x-service-media-type']).toContain('text-match');
      const seen = new Set<string>();
      for (const item of r.body.items) {
        expect(item.text_matches.length, kind).toBeGreaterThan(0);
        for (const tm of item.text_matches) {
          expect(typeof tm.object_url).toBe('string');
          expect(typeof tm.object_type).toBe('string');
          seen.add(tm.property);
          for (const m of tm.matches) {
            const [start, end] = m.indices;
            expect(start).toBeGreaterThanOrEqual(0);
            expect(end).toBeLessThanOrEqual(tm.fragment.length);
            expect(tm.fragment.slice(start, end)).toBe(m.text);
            expect(m.text.toLowerCase()).toBe(q);
          }
        }
      }
      expect([...seen].sort(), kind).toEqual(properties);
    }
  });

  it('adds nothing without the media type', async () => {
    const r = await search(ref.get, 'issues', 'widget');
    expect(r.body.items[0].text_matches).toBeUndefined();
  });
});

describe('single sign-on partial results', () => {
  const ref = useReference({ quotas: QUOTAS });
  const sso = { token: TOKENS.ssoUnauthorized };

  it('omits the unauthorized organization and names it in X-Service-SSO', async () => {
    const r = await search(ref.get, 'issues', 'widget', '&per_page=100', sso);
    expect(r.status).toBe(200);
    expect(r.body.total_count).toBeGreaterThan(0);
    for (const item of r.body.items) expect(issueRepo(item).startsWith('acme/')).toBe(false);
    expect(r.headers['x-service-sso']).toBe(`partial-results; organizations=${ORG_ID('acme')}`);
    const authorized = await search(ref.get, 'issues', 'widget');
    expect(authorized.headers['x-service-sso']).toBeUndefined();
    expect(authorized.body.total_count).toBeGreaterThan(r.body.total_count);
  });

  it('treats a repo: of the unauthorized organization as inaccessible', async () => {
    expect422(await search(ref.get, 'issues', 'widget repo:acme/widgets', '', sso));
    const mixed = await search(ref.get, 'issues', 'widget repo:acme/widgets repo:globex/gizmo', '&per_page=100', sso);
    expect(mixed.status).toBe(200);
    expect(fullNames(mixed, issueRepo)).toEqual(new Set(['globex/gizmo']));
    expect(mixed.headers['x-service-sso']).toContain('partial-results');
    expect((await search(ref.get, 'labels', 'bug', `&repository_id=${REPO_ID('acme/widgets')}`, sso)).status).toBe(404);
  });
});

/** For every fault, an assertion of the rule it breaks: it holds on a clean reference and fails with the fault on. */
const FAULT_CHECKS: Record<string, (get: Get) => Promise<void>> = {
  'search-missing-q-accepted': async (get) => expect422(await search(get, 'issues', null)),
  'search-422-wrong-message': async (get) => expect422(await search(get, 'issues', 'w'.repeat(LIMITS.search.maxQueryLength + 1))),
  'search-q-length-counts-qualifiers': async (get) => {
    const q = `widget ${Array.from({ length: 12 }, () => 'label:"a-rather-long-label-name-here"').join(' ')}`;
    expect((await search(get, 'issues', q)).status).toBe(200);
  },
  'search-q-length-unchecked': async (get) => expect422(await search(get, 'issues', 'w'.repeat(LIMITS.search.maxQueryLength + 1))),
  'search-operators-unlimited': async (get) => expect422(await search(get, 'issues', 'a OR b OR c OR d OR e OR f OR g')),
  'search-operators-five-refused': async (get) => expect((await search(get, 'issues', 'a OR b OR c OR d OR e OR f')).status).toBe(200),
  'search-inaccessible-leaks': async (get) => expect422(await search(get, 'issues', 'widget repo:acme/secret', '', { token: null })),
  'search-inaccessible-empty': async (get) => expect422(await search(get, 'issues', 'widget repo:acme/secret', '', { token: null })),
  'search-partial-access-refused': async (get) => {
    expect((await search(get, 'issues', 'widget repo:acme/secret repo:globex/gizmo', '', { token: null })).status).toBe(200);
  },
  'search-app-user-without-is-accepted': async (get) => expect422(await search(get, 'issues', 'widget', '', { token: TOKENS.appUser })),
  'search-code-qualifier-only-accepted': async (get) => expect422(await search(get, 'code', 'repo:acme/widgets')),
  'search-code-other-branches': async (get) => expect(await total(get, 'code', 'fluxcapacitor')).toBe(0),
  'search-code-large-files-indexed': async (get) => expect(await total(get, 'code', 'hugefixturemarker')).toBe(0),
  'search-commits-other-branches': async (get) => expect(await total(get, 'commits', 'fluxcapacitor')).toBe(0),
  'search-labels-without-repository-accepted': async (get) => expect422(await search(get, 'labels', 'bug')),
  'search-code-if-none-match-ignored': async (get) => notModified(get, '/search/code?q=widget'),
  'search-commits-if-none-match-ignored': async (get) => notModified(get, '/search/commits?q=widget'),
  'search-issues-if-none-match-ignored': async (get) => notModified(get, '/search/issues?q=widget'),
  'search-labels-if-none-match-ignored': async (get) => notModified(get, `/search/labels?q=widget&repository_id=${REPO_ID('acme/widgets')}`),
  'search-labels-unknown-repository-422': async (get) => expect((await search(get, 'labels', 'bug', '&repository_id=2147483647')).status).toBe(404),
  'search-score-ascending': async (get) => {
    const scores = await bestMatchScores(get, 'issues', 'widget', '');
    expect(scores.every((x, i) => i === 0 || scores[i - 1]! >= x)).toBe(true);
    expect(scores[0]).toBeGreaterThan(scores.at(-1)!);
  },
  'search-per-page-uncapped': async (get) => {
    expect((await search(get, 'issues', 'widget', '&per_page=150')).body.items).toHaveLength(LIMITS.search.maxPerPage);
  },
  'search-beyond-1000-reachable': async (get) => {
    expect((await search(get, 'issues', 'widget', `&per_page=100&page=${LIMITS.search.reachableResults / 100 + 1}`)).status).toBe(422);
  },
  'search-total-count-capped': async (get) => expect(await total(get, 'issues', 'widget')).toBeGreaterThan(LIMITS.search.reachableResults),
  'search-incomplete-results-string': async (get) => expect((await search(get, 'issues', 'widget')).body.incomplete_results).toBe(false),
  'search-text-match-ignored': async (get) => {
    const r = await search(get, 'issues', 'widget', '', { headers: TEXT_MATCH });
    expect(r.body.items[0].text_matches?.length).toBeGreaterThan(0);
  },
  'search-text-match-off-by-one': async (get) => {
    const r = await search(get, 'labels', 'widget', `&repository_id=${REPO_ID('acme/widgets')}`, { headers: TEXT_MATCH });
    for (const item of r.body.items) {
      for (const tm of item.text_matches) for (const m of tm.matches) expect(tm.fragment.slice(m.indices[0], m.indices[1]).toLowerCase()).toBe('widget');
    }
  },
  'search-code-score-ascending': async (get) => descending(await search(get, 'code', 'widget', '&per_page=100')),
  'search-commits-score-ascending': async (get) => descending(await search(get, 'commits', 'widget', '&per_page=100')),
  'search-labels-score-ascending': async (get) => descending(await search(get, 'labels', 'widget', `&repository_id=${REPO_ID('acme/widgets')}`)),
  'search-repositories-score-ascending': async (get) => descending(await search(get, 'repositories', 'widget', '&per_page=100')),
  'search-code-text-match-ignored': async (get) => matched(await search(get, 'code', 'widget', '', { headers: TEXT_MATCH }), ['content', 'path']),
  'search-commits-text-match-ignored': async (get) => matched(await search(get, 'commits', 'widget', '', { headers: TEXT_MATCH }), ['message']),
  'search-code-per-page-uncapped': async (get) => {
    expect((await search(get, 'code', 'widget', '&per_page=150')).body.items).toHaveLength(LIMITS.search.maxPerPage);
  },
  'search-commits-per-page-uncapped': async (get) => {
    expect((await search(get, 'commits', 'widget', '&per_page=150')).body.items).toHaveLength(LIMITS.search.maxPerPage);
  },
  'search-repositories-per-page-uncapped': async (get) => {
    expect((await search(get, 'repositories', 'widget', '&per_page=150')).body.items).toHaveLength(LIMITS.search.maxPerPage);
  },
  'search-repositories-beyond-1000-reachable': async (get) => {
    expect((await search(get, 'repositories', 'widget', `&per_page=100&page=${LIMITS.search.reachableResults / 100 + 1}`)).status).toBe(422);
  },
  'search-commits-text-match-property': async (get) => matched(await search(get, 'commits', 'widget', '', { headers: TEXT_MATCH }), ['message']),
  'search-labels-text-match-ignored': async (get) => {
    matched(await search(get, 'labels', 'widget', `&repository_id=${REPO_ID('acme/widgets')}`, { headers: TEXT_MATCH }), ['name', 'description']);
  },
  'search-repositories-text-match-ignored': async (get) => matched(await search(get, 'repositories', 'widget', '', { headers: TEXT_MATCH }), ['name', 'description']),
  'search-code-anonymous-refused': async (get) => expect((await search(get, 'code', 'widget', '', { token: null })).status).toBe(200),
  'search-commits-anonymous-refused': async (get) => expect((await search(get, 'commits', 'widget', '', { token: null })).status).toBe(200),
  'search-labels-anonymous-refused': async (get) => {
    expect((await search(get, 'labels', 'widget', `&repository_id=${REPO_ID('acme/widgets')}`, { token: null })).status).toBe(200);
  },
  'search-repositories-anonymous-refused': async (get) => expect((await search(get, 'repositories', 'widget', '', { token: null })).status).toBe(200),
  'search-issues-anonymous-refused': async (get) => expect((await search(get, 'issues', 'widget', '', { token: null })).status).toBe(200),
  'search-text-match-fragment-uppercased': async (get) => {
    const r = await search(get, 'labels', 'widget', `&repository_id=${REPO_ID('acme/widgets')}`, { headers: TEXT_MATCH });
    for (const item of r.body.items) for (const tm of item.text_matches) expect(item[tm.property]).toContain(tm.fragment);
  },
  'search-text-match-object-url-relative': async (get) => {
    const r = await search(get, 'repositories', 'widget', '', { headers: TEXT_MATCH });
    for (const item of r.body.items) for (const tm of item.text_matches) expect(tm.object_url).toMatch(/^https?:\/\//);
  },
  'search-code-q-length-unchecked': async (get) => expect422(await search(get, 'code', 'w'.repeat(LIMITS.search.maxQueryLength + 1))),
  'search-issues-operators-unlimited': async (get) => expect422(await search(get, 'issues', 'a OR b OR c OR d OR e OR f OR g')),
  'search-code-operators-unlimited': async (get) => expect422(await search(get, 'code', 'a OR b OR c OR d OR e OR f OR g')),
  'search-code-422-wrong-message': async (get) => expect422(await search(get, 'code', 'repo:acme/widgets')),
  'search-user-unknown-accepted': async (get) => expect422(await search(get, 'issues', 'widget user:no--such-account', '', { token: null })),
  'search-org-unknown-accepted': async (get) => expect422(await search(get, 'issues', 'widget org:no--such-account', '', { token: null })),
  'search-sso-results-included': async (get) => {
    const r = await search(get, 'issues', 'widget', '&per_page=100', { token: TOKENS.ssoUnauthorized });
    expect(r.body.items.filter((i: any) => issueRepo(i).startsWith('acme/'))).toHaveLength(0);
  },
  'search-sso-no-partial-header': async (get) => {
    const r = await search(get, 'issues', 'widget', '', { token: TOKENS.ssoUnauthorized });
    expect(r.headers['x-service-sso']).toBe(`partial-results; organizations=${ORG_ID('acme')}`);
  },
};

describe('search faults', () => {
  const clean = useReference({ quotas: QUOTAS });

  it('every fault has a check', () => {
    expect(Object.keys(FAULT_CHECKS).sort()).toEqual(searchArea.faults.map((f) => f.id).sort());
  });

  const broken = new Map<string, ReferenceHandle>();
  for (const id of Object.keys(FAULT_CHECKS)) broken.set(id, useReference({ quotas: QUOTAS, faults: [id] }));

  for (const [id, check] of Object.entries(FAULT_CHECKS)) {
    it(`${id} breaks the rule it names`, async () => {
      await check(clean.get);
      await expect(check(broken.get(id)!.get)).rejects.toThrow();
    });
  }
});
